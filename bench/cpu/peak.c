/* fp32 peak of this machine: a loop of fused multiply-adds on independent
 * vector accumulators, on 1 thread and on N threads at once.
 *
 *   gcc -O3 -march=native -pthread bench/cpu/peak.c -o peak
 *   ./peak [threads] [seconds]
 *
 * Each thread updates ACC independent vector accumulators (enough to cover
 * the FMA latency times the number of FMA pipes), so the loop is bound by
 * FMA throughput, not latency. The vector width is the widest the compiler
 * targets (-march=native: 512 bits with AVX-512, 256 with AVX2). One FMA on
 * a W-lane vector is 2*W FLOP. Prints one line:
 *
 *   peak: threads=T vector-bits=B accumulators=A gflops=G gflops-cpu-time=C
 *
 * G is FLOP per wall-clock second of the T threads together: what the
 * machine delivered while the probe ran. C is the sum over the threads of
 * FLOP per second of the thread's own CPU time: what the cores deliver while
 * the threads run on them, unaffected by other processes taking turns on
 * the same cores (the hardware peak on a shared machine). Each is the best
 * of 5 trials of about `seconds` each.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__AVX512F__)
#define LANES 16
#elif defined(__AVX__)
#define LANES 8
#else
#define LANES 4
#endif

typedef float vec __attribute__((vector_size(LANES * sizeof(float))));

/* Accumulators per thread: at least FMA latency x FMA pipes (Haswell 5 x 2,
 * Zen 3 4 x 2, Skylake-SP 4 x 2), and with a and b no more than the vector
 * registers. x86-64 without AVX-512 has 16 (ymm0-15): 16 accumulators
 * spill to the stack and the probe measured 55 instead of 92 GFLOP/s on a
 * Zen 3 core (OpenBLAS's SGEMM reached 71). AVX-512 and AArch64 have 32. */
#if defined(__AVX512F__) || defined(__aarch64__)
#define ACC 16
#else
#define ACC 12
#endif
#define INNER 1000

struct job {
  long iterations;
  double cpu_seconds; /* CPU time of the thread in the loop */
  float sink;
};

static double clock_seconds(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void *work(void *argument) {
  struct job *job = argument;
  vec acc[ACC];
  vec a, b;
  for (int l = 0; l < LANES; ++l) {
    a[l] = 0.999999f;
    b[l] = 1e-7f;
  }
  for (int i = 0; i < ACC; ++i)
    acc[i] = a * (float)(i + 1);
  double start = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
  for (long it = 0; it < job->iterations; ++it) {
    /* Keep a and b opaque so the compiler cannot fold the chain. */
    __asm__ volatile("" : "+v"(a), "+v"(b));
    for (int k = 0; k < INNER; ++k) {
#pragma GCC unroll 16
      for (int i = 0; i < ACC; ++i)
        acc[i] = acc[i] * a + b;
    }
  }
  job->cpu_seconds = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - start;
  float sum = 0;
  for (int i = 0; i < ACC; ++i)
    for (int l = 0; l < LANES; ++l)
      sum += acc[i][l];
  job->sink = sum;
  return NULL;
}

/* Seconds `threads` threads take to run `iterations` outer iterations each
 * (wall clock); *cpu_rate is the sum over threads of FLOP per CPU second. */
static double trial(int threads, long iterations, double *cpu_rate) {
  pthread_t ids[256];
  struct job jobs[256];
  double start = clock_seconds(CLOCK_MONOTONIC);
  for (int t = 0; t < threads; ++t) {
    jobs[t].iterations = iterations;
    pthread_create(&ids[t], NULL, work, &jobs[t]);
  }
  for (int t = 0; t < threads; ++t)
    pthread_join(ids[t], NULL);
  double wall = clock_seconds(CLOCK_MONOTONIC) - start;
  double flop = 2.0 * LANES * ACC * INNER * (double)iterations;
  *cpu_rate = 0;
  for (int t = 0; t < threads; ++t)
    *cpu_rate += flop / jobs[t].cpu_seconds;
  return wall;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  double seconds = argc > 2 ? atof(argv[2]) : 0.5;
  if (threads < 1 || threads > 256) {
    fprintf(stderr, "error: threads must be in [1, 256]\n");
    return 1;
  }
  /* Calibrate: double the iteration count until one thread runs for at
   * least a tenth of `seconds`, then scale to `seconds` per trial. */
  long iterations = 16;
  double elapsed, cpu_rate;
  while ((elapsed = trial(1, iterations, &cpu_rate)) < 0.1 * seconds)
    iterations *= 2;
  iterations = (long)(iterations * seconds / elapsed) + 1;
  double best = 0, best_cpu = 0;
  for (int k = 0; k < 5; ++k) {
    double flop = 2.0 * LANES * ACC * INNER * (double)iterations * threads;
    double r = flop / trial(threads, iterations, &cpu_rate);
    if (r > best)
      best = r;
    if (cpu_rate > best_cpu)
      best_cpu = cpu_rate;
  }
  printf("peak: threads=%d vector-bits=%d accumulators=%d gflops=%.1f "
         "gflops-cpu-time=%.1f\n",
         threads, LANES * 32, ACC, best / 1e9, best_cpu / 1e9);
  return 0;
}
