int host_helper(int x) { return x * 2; }
