package cluster

import "testing"

// TestSetTask settles K/N from the environment of a Slurm job array or a
// Kubernetes Indexed Job, or from --task, which comes first, and refuses
// what is not a task of the array.
func TestSetTask(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	for _, c := range []struct {
		vars        map[string]string
		task, tasks int
		err         bool
	}{
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8"}, 3, 8, false},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1"}, 2, 8, false},
		{map[string]string{"JOB_COMPLETION_INDEX": "5", "FIFTEEN_TASK_COUNT": "6"}, 5, 6, false},
		{map[string]string{"JOB_COMPLETION_INDEX": "6", "FIFTEEN_TASK_COUNT": "6"}, 0, 0, true},
		{map[string]string{"JOB_COMPLETION_INDEX": "5"}, 0, 0, true},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "9223372036854775807"}, 0, 0, true},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "2"}, 0, 0, true},
		{map[string]string{}, 0, 0, true},
	} {
		var cc Config
		err := cc.SetTask("", env(c.vars))
		if (err != nil) != c.err || err == nil && (cc.Task != c.task || cc.Tasks != c.tasks) {
			t.Errorf("%v: task %d of %d, %v", c.vars, cc.Task, cc.Tasks, err)
		}
	}
	for _, c := range []struct {
		task        string
		want, tasks int
	}{{"3/8", 3, 8}, {"0/1", 0, 1}, {"8/8", -1, 0}, {"-1/8", -1, 0}, {"1/16385", -1, 0}, {"3", -1, 0}, {"a/b", -1, 0}} {
		var cc Config
		err := cc.SetTask(c.task, env(map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"}))
		if c.want < 0 && err == nil || c.want >= 0 && (err != nil || cc.Task != c.want || cc.Tasks != c.tasks) {
			t.Errorf("--task %s: task %d of %d, %v", c.task, cc.Task, cc.Tasks, err)
		}
	}
}

func TestTaskList(t *testing.T) {
	many := make([]int, 100)
	for i := range many {
		many[i] = i
	}
	for _, c := range []struct {
		tasks []int
		want  string
	}{
		{[]int{1, 3}, "[1 3]"},
		{many, "[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 …] (100 in all)"},
	} {
		if got := taskList(c.tasks); got != c.want {
			t.Errorf("%v: %q, want %q", c.tasks, got, c.want)
		}
	}
}
