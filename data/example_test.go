package data_test

import (
	"fmt"

	"fifteen/data"
)

func ExampleParseSet() {
	korf, _ := data.ParseSet("korf100")
	fmt.Println(len(korf.Instances), korf.Instances[0].ID, korf.Instances[0].Optimal, korf.Goal)
	fig := data.Korf1985()["korf12"]
	fmt.Println(fig.H0, fig.Generated)
	random, _ := data.ParseSet("random:3:42:3x3")
	fmt.Println(len(random.Instances), random.Instances[0].Size)
	// Output:
	// 100 korf1 57 first
	// 35 546344
	// 3 3x3
}
