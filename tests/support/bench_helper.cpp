/* A program for `mcpilot bench`'s tests, with known behaviour:
 *   normal MEAN SD [LINES]   prints LINES (default 1) readings drawn from N(MEAN, SD^2)
 *   sleep SECONDS            sleeps that long
 *   sleepnormal MEAN SD      sleeps a N(MEAN, SD^2) draw of seconds (at least 0)
 *   work W                   sleeps 0.05 + W / 2000 seconds (a rate of 2000 work per second)
 *   slowfirst K FAST SLOW    sleeps SLOW s during its first K runs, FAST s afterwards
 *   warmfirst K FAST SLOW SD prints SLOW during its first K runs, FAST afterwards, plus N(0, SD^2)
 *   warmstep K SLOW M LOW HIGH SD
 *                            prints SLOW during its first K runs, LOW until run M, HIGH after
 *                            (a warm-up, then a step of the machine's level), plus N(0, SD^2)
 *   fail CODE                writes to stderr and exits with CODE
 *   garbage                  prints a line that is not a number
 * Runs are numbered by a counter kept in the file named by BENCH_HELPER_STATE (0 when unset),
 * and draws are seeded from BENCH_HELPER_SEED and that run number, so that a session's readings
 * depend only on the seed. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t state;

static uint64_t splitmix64(void) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double uniform(void) {
  return ((double)(splitmix64() >> 11) + 0.5) * 0x1.0p-53;
}

/* Box-Muller: one standard normal draw. */
static double normal(void) {
  const double u = uniform(), v = uniform();
  return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static long next_run(void) {
  const char* path = getenv("BENCH_HELPER_STATE");
  if (!path) return 0;
  long n = 0;
  FILE* f = fopen(path, "r");
  if (f) {
    if (fscanf(f, "%ld", &n) != 1) n = 0;
    fclose(f);
  }
  f = fopen(path, "w");
  if (f) {
    fprintf(f, "%ld\n", n + 1);
    fclose(f);
  }
  return n;
}

static void sleep_for(double s) {
  struct timespec t;
  t.tv_sec = (time_t)s;
  t.tv_nsec = (long)((s - (double)t.tv_sec) * 1e9);
  while (nanosleep(&t, &t) != 0) {
  }
}

int main(int argc, char** argv) {
  if (argc < 2) return 64;
  const long run = next_run();
  const char* seed = getenv("BENCH_HELPER_SEED");
  state = (seed ? strtoull(seed, NULL, 10) : 1) * 1000003ull + (uint64_t)run;
  const char* mode = argv[1];
  if (!strcmp(mode, "normal") && argc >= 4) {
    const double mean = atof(argv[2]), sd = atof(argv[3]);
    const int lines = argc >= 5 ? atoi(argv[4]) : 1;
    for (int i = 0; i < lines; ++i) printf("%.17g\n", mean + sd * normal());
  } else if (!strcmp(mode, "sleep") && argc >= 3) {
    sleep_for(atof(argv[2]));
  } else if (!strcmp(mode, "sleepnormal") && argc >= 4) {
    const double d = atof(argv[2]) + atof(argv[3]) * normal();
    sleep_for(d > 0 ? d : 0);
  } else if (!strcmp(mode, "work") && argc >= 3) {
    sleep_for(0.05 + atof(argv[2]) / 2000.0);
  } else if (!strcmp(mode, "slowfirst") && argc >= 5) {
    sleep_for(run < atol(argv[2]) ? atof(argv[4]) : atof(argv[3]));
  } else if (!strcmp(mode, "warmfirst") && argc >= 6) {
    /* A reported reading, slow for the first N runs: a warm-up with no timing noise in it. */
    const double mean = run < atol(argv[2]) ? atof(argv[4]) : atof(argv[3]);
    printf("%.17g\n", mean + atof(argv[5]) * normal());
  } else if (!strcmp(mode, "warmstep") && argc >= 8) {
    const double level = run < atol(argv[2])   ? atof(argv[3])
                         : run < atol(argv[4]) ? atof(argv[5])
                                               : atof(argv[6]);
    printf("%.17g\n", level + atof(argv[7]) * normal());
  } else if (!strcmp(mode, "fail") && argc >= 3) {
    fprintf(stderr, "bench_helper: failing on purpose\n");
    return atoi(argv[2]);
  } else if (!strcmp(mode, "garbage")) {
    printf("1.5\nnot-a-number\n");
  } else {
    return 64;
  }
  return 0;
}
