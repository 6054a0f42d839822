#include "util.h"
long total(const int *x, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}
