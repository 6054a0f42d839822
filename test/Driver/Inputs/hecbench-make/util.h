long total(const int *x, int n);
