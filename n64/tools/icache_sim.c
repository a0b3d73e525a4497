/* The VR4300's instruction cache replayed against other function layouts,
 * for icache_layout.py (which compiles and runs this; see there).
 *
 * The cache: 16 KiB, direct-mapped, 32-byte lines, indexed by address.
 * A trace is a run of fetches per line visited, each as (function, lowest
 * offset, highest offset) in int32s, the function an index into the
 * function table (or -1: the offsets are addresses that do not move).
 * Moving a function moves its runs: a run then touches every line its
 * moved bytes fall on. Replayed against the layout it was recorded in,
 * the count is cen64's to within a few misses in a thousand.
 *
 *   icache_sim TRACE FUNCTIONS ORDER ITERATIONS SEED TEMPERATURE OUT
 *
 * FUNCTIONS: the first place free for the order (hex), then one line a
 * function: address (hex), size, alignment, pinned (1: stays where it is).
 * ORDER: function indices laid out first, in that order, from the first
 * free place; every other unpinned function follows in address order.
 * Prints the misses of the recorded layout and of ORDER, then searches
 * (ITERATIONS moves of one function, annealed from TEMPERATURE) and
 * writes the best order found to OUT, with its misses on stdout. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINES 512 /* 16 KiB of 32-byte lines */

struct function {
  uint32_t address, size, align, pinned;
};

static struct function *functions;
static int function_count;
static int32_t *trace;
static long runs;
static uint32_t *placed_at;
static uint32_t first_free;

static void lay_out(const int *order, int n) {
  char *placed = calloc(function_count, 1);
  uint32_t at = first_free;
  if (!placed) {
    perror("icache_sim");
    exit(1);
  }
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < (pass ? function_count : n); k++) {
      int i = pass ? k : order[k];
      if (functions[i].pinned) {
        placed_at[i] = functions[i].address;
        continue;
      }
      if (placed[i])
        continue;
      uint32_t align = functions[i].align ? functions[i].align : 4;
      at = (at + align - 1) & ~(align - 1);
      placed_at[i] = at;
      at += functions[i].size;
      placed[i] = 1;
    }
  }
  free(placed);
}

static long misses(void) {
  uint32_t tag[LINES];
  long count = 0;
  memset(tag, 0xff, sizeof tag);
  for (long r = 0; r < runs; r++) {
    int32_t f = trace[3 * r];
    uint32_t base = f < 0 ? 0 : placed_at[f];
    uint32_t first = (base + (uint32_t) trace[3 * r + 1]) >> 5;
    uint32_t last = (base + (uint32_t) trace[3 * r + 2]) >> 5;
    for (uint32_t line = first; line <= last; line++) {
      if (tag[line % LINES] != line) {
        tag[line % LINES] = line;
        count++;
      }
    }
  }
  return count;
}

static void *read_file(const char *path, long *size) {
  FILE *f = fopen(path, "rb");
  void *data;
  if (!f || fseek(f, 0, SEEK_END) || (*size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
      !(data = malloc(*size + 1)) || fread(data, 1, *size, f) != (size_t) *size) {
    perror(path);
    exit(1);
  }
  fclose(f);
  return data;
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: icache_sim TRACE FUNCTIONS ORDER ITERATIONS SEED TEMPERATURE OUT\n");
    return 2;
  }
  long size;
  trace = read_file(argv[1], &size);
  runs = size / 12;

  FILE *f = fopen(argv[2], "r");
  int capacity = 1024;
  functions = malloc(capacity * sizeof *functions);
  if (!f || fscanf(f, "%x", &first_free) != 1) {
    perror(argv[2]);
    return 1;
  }
  struct function fn;
  while (fscanf(f, "%x %u %u %u", &fn.address, &fn.size, &fn.align, &fn.pinned) == 4) {
    if (function_count == capacity)
      functions = realloc(functions, (capacity *= 2) * sizeof *functions);
    functions[function_count++] = fn;
  }
  fclose(f);
  placed_at = malloc(function_count * sizeof *placed_at);

  int n = 0, *order = malloc(function_count * sizeof *order), index;
  f = fopen(argv[3], "r");
  if (!f) {
    perror(argv[3]);
    return 1;
  }
  while (n < function_count && fscanf(f, "%d", &index) == 1)
    if (index >= 0 && index < function_count)
      order[n++] = index;
  fclose(f);
  for (long r = 0; r < runs; r++)
    if (trace[3 * r] >= function_count) {
      fprintf(stderr, "icache_sim: run %ld names function %d of %d\n", r, trace[3 * r],
              function_count);
      return 1;
    }

  for (int i = 0; i < function_count; i++)
    placed_at[i] = functions[i].address;
  printf("recorded %ld\n", misses());
  lay_out(order, n);
  long current = misses(), best = current;
  printf("order %ld\n", current);

  long iterations = atol(argv[4]);
  double temperature = atof(argv[6]);
  int *best_order = malloc(n * sizeof *order), *next = malloc(n * sizeof *order);
  memcpy(best_order, order, n * sizeof *order);
  srand(atoi(argv[5]));
  for (long it = 0; n > 1 && it < iterations; it++) {
    /* One function to another place in the order, or two swapped. */
    int i = rand() % n, j = rand() % n;
    if (i == j)
      continue;
    memcpy(next, order, n * sizeof *order);
    int moved = next[i];
    if (rand() % 2) {
      next[i] = next[j];
      next[j] = moved;
    } else {
      if (i < j)
        memmove(next + i, next + i + 1, (j - i) * sizeof *next);
      else
        memmove(next + j + 1, next + j, (i - j) * sizeof *next);
      next[j] = moved;
    }
    lay_out(next, n);
    long m = misses();
    double t = temperature * (1.0 - (double) it / iterations);
    if (m <= current || (t > 0 && (double) rand() / RAND_MAX < exp((current - m) / t))) {
      current = m;
      memcpy(order, next, n * sizeof *order);
      if (m < best) {
        best = m;
        memcpy(best_order, order, n * sizeof *order);
      }
    }
  }
  f = fopen(argv[7], "w");
  if (!f) {
    perror(argv[7]);
    return 1;
  }
  for (int k = 0; k < n; k++)
    fprintf(f, "%d\n", best_order[k]);
  fclose(f);
  printf("best %ld\n", best);
  return 0;
}
