/* Floating point for `mtpc cc`'s fast-math flag sets (cc-flags.test):
 * reductions, polynomials, reciprocals and square roots, whose code the
 * fast-math flags and contraction change; main prints the results. */
#include <math.h>
#include <stdio.h>

static double data_a[1024], data_b[1024];
static float ys[512], xs[512];

double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

double poly(double x) {
  return ((((3.0 * x + 2.0) * x - 5.0) * x + 1.5) * x - 0.25) / (x * x + 1.0);
}

float rsq(float x) { return 1.0f / sqrtf(x); }

void axpy(float *y, const float *x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

double norm(const double *v, int n) { return sqrt(dot(v, v, n)); }

int main(int argc, char **argv) {
  (void)argv;
  for (int i = 0; i < 1024; i++) {
    data_a[i] = (i % 17) * 0.25 + argc;
    data_b[i] = 1.0 / (i + 1);
  }
  for (int i = 0; i < 512; i++) {
    xs[i] = (float)(i % 13) / 7.0f;
    ys[i] = (float)i;
  }
  axpy(ys, xs, 1.5f, 512);
  double p = 0;
  for (int i = 0; i < 100; i++)
    p += poly(i * 0.01);
  float r = 0;
  for (int i = 1; i < 200; i++)
    r += rsq((float)i);
  printf("dot %.6f norm %.6f poly %.6f rsq %.4f y %.3f\n", dot(data_a, data_b, 1024),
         norm(data_a, 1024), p, r, ys[511]);
  return 0;
}
