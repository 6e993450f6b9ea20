/* clockprobe.c - how fast one core runs AVX-512 integer work when it is
 * alone and when every core is busy: a fixed count of dependent 512-bit
 * adds and maxes in registers (no memory traffic), timed. Run one copy,
 * then N at once (bench/run_clockprobe.sh): the ratio of their times is the
 * machine's own all-core slowdown, which bounds any program's parallel
 * efficiency on it. Build: gcc -O2 -mavx512bw bench/clockprobe.c */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 400000000L;
    __m512i a = _mm512_set1_epi16(1), b = _mm512_set1_epi16(2), c = _mm512_set1_epi16(3), d = _mm512_set1_epi16(4);
    const __m512i k = _mm512_set1_epi16(7);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < iters; i++) { /* four independent chains, like a DP row's cells */
        a = _mm512_max_epi16(_mm512_adds_epi16(a, k), b);
        b = _mm512_max_epi16(_mm512_adds_epi16(b, k), c);
        c = _mm512_max_epi16(_mm512_adds_epi16(c, k), d);
        d = _mm512_max_epi16(_mm512_adds_epi16(d, k), a);
        __asm__ volatile("" : "+v"(a), "+v"(b), "+v"(c), "+v"(d));
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    short out[32];
    _mm512_storeu_si512(out, _mm512_add_epi16(_mm512_add_epi16(a, b), _mm512_add_epi16(c, d)));
    printf("%.4f s (%.2f G iterations/s) [%d]\n", s, (double)iters / s / 1e9, out[0]);
    return 0;
}
