/* dp_antidiag — dynamic programs whose cell (i, j) depends only on cells
 * (i-1, j), (i, j-1), (i-1, j-1) (and (i-2, j-2)), so anti-diagonals can be
 * computed in parallel: edit distance (unit and weighted costs, last row),
 * LCS length, indel distance, Damerau (OSA) distance, longest common
 * substring, subsequence counting, Smith-Waterman local alignment (linear
 * and affine gaps, substitution matrices, float scores, end positions),
 * Needleman-Wunsch global and semi-global alignment, dynamic time warping
 * (absolute, squared, banded, multivariate), maximum/minimum paths on
 * weighted grids, monotone lattice paths with obstacles modulo a prime and
 * the largest square of ones.  Over batches of sequence pairs (u8, u16 or
 * i32 symbols from small alphabets) or single long pairs and grids,
 * returning the full table or the final score per pair. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_ops.h"


enum { PAIRS, PAIRST, SINGLE, GRID, GRIDB, BAND, SUBSEQ, SUBST };

static void configs(GenProgram *p, int kind)
{
    static const char *const C[][4] = {
        [PAIRS] = {"batch=32,la=48,lb=40", "batch=1,la=1,lb=1", "batch=7,la=13,lb=11", "batch=262144,la=128,lb=128"},
        [PAIRST] = {"batch=16,la=40,lb=32", "batch=1,la=1,lb=1", "batch=5,la=13,lb=11", "batch=8192,la=128,lb=128"},
        [SINGLE] = {"la=300,lb=200", "la=1,lb=1", "la=37,lb=53", "la=8192,lb=8192"},
        [GRID] = {"n=200,m=150", "n=1,m=1", "n=37,m=53", "n=8192,m=8192"},
        [GRIDB] = {"batch=16,n=40,m=30", "batch=1,n=1,m=1", "batch=5,n=13,m=7", "batch=16384,n=128,m=128"},
        [BAND] = {"batch=32,la=48,lb=40,w=10", "batch=1,la=1,lb=1,w=0", "batch=7,la=13,lb=11,w=3",
                  "batch=262144,la=128,lb=128,w=24"},
        [SUBSEQ] = {"batch=32,la=64,lb=6", "batch=1,la=1,lb=1", "batch=7,la=13,lb=3", "batch=65536,la=256,lb=16"},
        [SUBST] = {"batch=32,la=48,lb=40", "batch=1,la=1,lb=1", "batch=7,la=13,lb=11", "batch=262144,la=128,lb=128"},
    };
    gen_config(p, "small", C[kind][0]);
    gen_config(p, "edge", C[kind][1]);
    gen_config(p, "edge-prime", C[kind][2]);
    gen_config(p, "large", C[kind][3]);
}

#define OP(...) {__VA_ARGS__}
#define SEQ "a=batch,la;b=batch,lb"
#define SEQ_FILL "a=int:0:4;b=int:0:4"
#define MIN3 "static int min3(int x, int y, int z)\n{\n    int m = x < y ? x : y;\n    return m < z ? m : z;\n}\n\n"
#define MAX3 "static int max3(int x, int y, int z)\n{\n    int m = x > y ? x : y;\n    return m > z ? m : z;\n}\n\n"
#define ROWS_ALLOC                                                                                  \
    "    int *rows = malloc(2 * (size_t)(lb + 1) * sizeof *rows);\n    if (!rows)\n        return;\n"  \
    "    int *prev = rows, *cur = rows + lb + 1;\n"
#define PAIR_HEAD                                                                                   \
    "    for (int p = 0; p < batch; p++) {\n        const $T *s = a + (size_t)p * la, *t = b + (size_t)p * lb;\n"
#define TABLE_HEAD                                                                                  \
    "    int w = lb + 1;\n" PAIR_HEAD "        int *D = table + (size_t)p * (la + 1) * w;\n"
#define SWAP_ROWS "            int *tmp = prev;\n            prev = cur;\n            cur = tmp;\n"
#define NO_TAIL {0, 0}, {0, 0}

/* The pairs.  A batch of independent problems is one thread per problem
 * running the C code's recurrence; the table rows the C code allocates are
 * the problem's slice of a scratch buffer.  One large table (a single long
 * pair, a grid) is filled by one block sweeping its anti-diagonals: the
 * cells of a diagonal depend only on the diagonals before, so the block's
 * threads share each diagonal and a barrier separates them (a grid of
 * blocks has no barrier, and the number of diagonals, hence of launches,
 * depends on the sizes). */
#define CU_MIN3 \
    "__device__ int min3(int x, int y, int z)\n" \
    "{\n" \
    "    const int m = x < y ? x : y;\n" \
    "    return m < z ? m : z;\n" \
    "}\n" \
    "\n"

#define CU_MAX3 \
    "__device__ int max3(int x, int y, int z)\n" \
    "{\n" \
    "    const int m = x > y ? x : y;\n" \
    "    return m > z ? m : z;\n" \
    "}\n" \
    "\n"

#define CU_DTW_PAIR \
    "/* One thread per pair: the C code's warping recurrence, two rows in the\n" \
    " * pair's slice of rows, row and column 0 infinite but D[0][0] = 0. */\n" \
    "extern \"C\" __global__ void dtw(const $T *a, const $T *b, $T *dist, $T *rows, int batch, int la, int lb)\n" \
    "{\n" \
    "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (p >= batch)\n" \
    "        return;\n" \
    "    const $T *s = a + p * la, *t = b + p * lb;\n" \
    "    $T *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n" \
    "    prev[0] = 0;\n" \
    "    for (int j = 1; j <= lb; j++)\n" \
    "        prev[j] = INF;\n" \
    "    for (int i = 1; i <= la; i++) {\n" \
    "        cur[0] = INF;\n" \
    "        for (int j = 1; j <= lb; j++) {\n" \
    "            $T m = prev[j - 1];\n" \
    "            if (prev[j] < m)\n" \
    "                m = prev[j];\n" \
    "            if (cur[j - 1] < m)\n" \
    "                m = cur[j - 1];\n" \
    "            cur[j] = COST + m;\n" \
    "        }\n" \
    "        $T *tmp = prev;\n" \
    "        prev = cur;\n" \
    "        cur = tmp;\n" \
    "    }\n" \
    "    dist[p] = prev[lb];\n" \
    "}\n" \
    "\n"

#define CU_GRID_SWEEP \
    "/* One block sweeps the anti-diagonals d = i + j of the n x m grid in\n" \
    " * order, its threads sharing each diagonal (a cell needs only its up, left\n" \
    " * and diagonal neighbours), a barrier after it. */\n" \
    "extern \"C\" __global__ void grid_paths(const $T *W, $T *P, int n, int m)\n" \
    "{\n" \
    "    for (int d = 0; d <= n + m - 2; d++) {\n" \
    "        const int lo = d - (m - 1) > 0 ? d - (m - 1) : 0, hi = d < n - 1 ? d : n - 1;\n" \
    "        for (int i = lo + threadIdx.x; i <= hi; i += blockDim.x)\n" \
    "            cell(W, P, m, i, d - i);\n" \
    "        __syncthreads();\n" \
    "    }\n" \
    "}\n" \
    "\n"

#define CU_LATTICE \
    "/* One block sweeps the anti-diagonals d = i + j of the n x m grid in\n" \
    " * order, its threads sharing each diagonal, a barrier after it: a cell\n" \
    " * counts the paths from its up and left (and diagonal) neighbours. */\n" \
    "extern \"C\" __global__ void lattice_paths(const unsigned char *free_cell, $T *C, int n, int m)\n" \
    "{\n" \
    "    for (int d = 0; d <= n + m - 2; d++) {\n" \
    "        const int lo = d - (m - 1) > 0 ? d - (m - 1) : 0, hi = d < n - 1 ? d : n - 1;\n" \
    "        for (int i = lo + threadIdx.x; i <= hi; i += blockDim.x) {\n" \
    "            const int j = d - i;\n" \
    "            const long long at = (long long)i * m + j;\n" \
    "            if (free_cell[at] == 0) {\n" \
    "                C[at] = 0;\n" \
    "            } else if (i == 0 && j == 0) {\n" \
    "                C[0] = 1;\n" \
    "            } else {\n" \
    "                long long c = 0;\n" \
    "                if (i > 0)\n" \
    "                    c += C[at - m];\n" \
    "                if (j > 0)\n" \
    "                    c += C[at - 1];\n" \
    "                if (DIAGONAL && i > 0 && j > 0)\n" \
    "                    c += C[at - m - 1];\n" \
    "                C[at] = ($T)(c % MODULUS);\n" \
    "            }\n" \
    "        }\n" \
    "        __syncthreads();\n" \
    "    }\n" \
    "}\n" \
    "\n"

static const Op OPS[] = {
    OP("edit-table", "u8 i32", PAIRST, "edit_distance",
       "#include <stddef.h>\n\n" MIN3 "/* Levenshtein distance tables of a batch of sequence pairs: D[i][j] is\n"
       " * the edit distance between the first i symbols of a and the first j of\n"
       " * b (unit insertions, deletions and substitutions). */\n",
       "const $T *a, const $T *b, int *table, int batch, int la, int lb",
       TABLE_HEAD "        for (int j = 0; j <= lb; j++)\n            D[j] = j;\n"
       "        for (int i = 1; i <= la; i++) {\n            D[i * w] = i;\n            for (int j = 1; j <= lb; j++)\n"
       "                D[i * w + j] = min3(D[(i - 1) * w + j - 1] + (s[i - 1] != t[j - 1]),\n"
       "                                    D[(i - 1) * w + j] + 1, D[i * w + j - 1] + 1);\n        }\n    }\n",
       "5*batch*la*lb", "$S*batch*(la+lb)+4*batch*(la+1)*(lb+1)", SEQ ";table=batch,la+1,lb+1", SEQ_FILL,
       NULL, NULL, NO_TAIL,
     .cuda = CU_MIN3
             "/* One thread per pair: the C code's Levenshtein table, row by row. */\n"
             "extern \"C\" __global__ void edit_distance(const $T *a, const $T *b, int *table, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const int w = lb + 1;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *D = table + p * (la + 1) * w;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        D[j] = j;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        D[i * w] = i;\n"
             "        for (int j = 1; j <= lb; j++)\n"
             "            D[i * w + j] = min3(D[(i - 1) * w + j - 1] + (s[i - 1] != t[j - 1]), D[(i - 1) * w + j] + 1,\n"
             "                                D[i * w + j - 1] + 1);\n"
             "    }\n"
             "}\n",
     .launch = {{"edit_distance", "(batch+255)/256", "256", NULL, "a,b,table,batch,la,lb"}},
     .mapping = "one-pair-per-thread"),
    OP("edit-distance", "u8 i32 u16", PAIRS, "edit_distance",
       "#include <stdlib.h>\n\n" MIN3 "/* Levenshtein distance of each sequence pair (a[p], b[p]), computed row\n"
       " * by row with two rows of the table. */\n",
       "const $T *a, const $T *b, int *dist, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        for (int j = 0; j <= lb; j++)\n            prev[j] = j;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = i;\n            for (int j = 1; j <= lb; j++)\n"
       "                cur[j] = min3(prev[j - 1] + (s[i - 1] != t[j - 1]), prev[j] + 1, cur[j - 1] + 1);\n"
       SWAP_ROWS "        }\n        dist[p] = prev[lb];\n    }\n    free(rows);\n",
       "5*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";dist=batch", SEQ_FILL, NULL, NULL, NO_TAIL,
     .cuda = CU_MIN3
             "/* One thread per pair: the C code's row-by-row recurrence, its two rows in\n"
             " * the pair's slice of rows. */\n"
             "extern \"C\" __global__ void edit_distance(const $T *a, const $T *b, int *dist, int *rows, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = j;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = i;\n"
             "        for (int j = 1; j <= lb; j++)\n"
             "            cur[j] = min3(prev[j - 1] + (s[i - 1] != t[j - 1]), prev[j] + 1, cur[j - 1] + 1);\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    dist[p] = prev[lb];\n"
             "}\n",
     .launch = {{"edit_distance", "(batch+255)/256", "256", NULL, "a,b,dist,rows,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("edit-weighted", "u8", PAIRS, "edit_distance",
       "#include <stdlib.h>\n\n" MIN3 "/* Weighted edit distance of each sequence pair: deleting a symbol of a\n"
       " * costs del_cost, inserting one of b ins_cost, substituting sub_cost. */\n",
       "const $T *a, const $T *b, int *dist, int ins_cost, int del_cost, int sub_cost, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        for (int j = 0; j <= lb; j++)\n            prev[j] = j * ins_cost;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = i * del_cost;\n            for (int j = 1; j <= lb; j++)\n"
       "                cur[j] = min3(prev[j - 1] + (s[i - 1] != t[j - 1] ? sub_cost : 0),\n"
       "                              prev[j] + del_cost, cur[j - 1] + ins_cost);\n"
       SWAP_ROWS "        }\n        dist[p] = prev[lb];\n    }\n    free(rows);\n",
       "6*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";dist=batch", SEQ_FILL, NULL,
       "ins_cost=2;del_cost=3;sub_cost=4", NO_TAIL,
     .cuda = CU_MIN3
             "/* One thread per pair: the weighted recurrence, two rows in the pair's\n"
             " * slice of rows. */\n"
             "extern \"C\" __global__ void edit_distance(const $T *a, const $T *b, int *dist, int *rows, int ins_cost, int del_cost,\n"
             "                                         int sub_cost, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = j * ins_cost;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = i * del_cost;\n"
             "        for (int j = 1; j <= lb; j++)\n"
             "            cur[j] = min3(prev[j - 1] + (s[i - 1] != t[j - 1] ? sub_cost : 0), prev[j] + del_cost,\n"
             "                          cur[j - 1] + ins_cost);\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    dist[p] = prev[lb];\n"
             "}\n",
     .launch = {{"edit_distance", "(batch+255)/256", "256", NULL, "a,b,dist,rows,ins_cost,del_cost,sub_cost,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("edit-single-table", "u8", SINGLE, "edit_distance",
       MIN3 "/* The full Levenshtein table of one long pair: D[i][j] is the distance\n"
       " * between a[0..i) and b[0..j). */\n",
       "const $T *a, const $T *b, int *D, int la, int lb",
       "    int w = lb + 1;\n    for (int j = 0; j <= lb; j++)\n        D[j] = j;\n"
       "    for (int i = 1; i <= la; i++) {\n        D[i * w] = i;\n        for (int j = 1; j <= lb; j++)\n"
       "            D[i * w + j] = min3(D[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1]),\n"
       "                                D[(i - 1) * w + j] + 1, D[i * w + j - 1] + 1);\n    }\n",
       "5*la*lb", "$S*(la+lb)+4*(la+1)*(lb+1)", "a=la;b=lb;D=la+1,lb+1", SEQ_FILL, NULL, NULL, NO_TAIL,
     .cuda = CU_MIN3
             "/* One block: row 0 and column 0, then the anti-diagonals d = i + j in\n"
             " * order, the block's threads sharing each diagonal, a barrier after it. */\n"
             "extern \"C\" __global__ void edit_distance(const $T *a, const $T *b, int *D, int la, int lb)\n"
             "{\n"
             "    const long long w = lb + 1;\n"
             "    for (int j = threadIdx.x; j <= lb; j += blockDim.x)\n"
             "        D[j] = j;\n"
             "    for (int i = threadIdx.x; i <= la; i += blockDim.x)\n"
             "        D[i * w] = i;\n"
             "    __syncthreads();\n"
             "    for (int d = 2; d <= la + lb; d++) {\n"
             "        const int lo = d - lb > 1 ? d - lb : 1, hi = d - 1 < la ? d - 1 : la;\n"
             "        for (int i = lo + threadIdx.x; i <= hi; i += blockDim.x) {\n"
             "            const int j = d - i;\n"
             "            D[i * w + j] = min3(D[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1]), D[(i - 1) * w + j] + 1,\n"
             "                                D[i * w + j - 1] + 1);\n"
             "        }\n"
             "        __syncthreads();\n"
             "    }\n"
             "}\n",
     .launch = {{"edit_distance", "1", "1024", NULL, "a,b,D,la,lb"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("edit-last-row", "u8", PAIRST, "edit_last_row",
       "#include <stddef.h>\n#include <stdlib.h>\n#include <string.h>\n\n" MIN3
       "/* The last row of each pair's Levenshtein table: last[p][j] is the\n"
       " * distance between all of a[p] and the first j symbols of b[p]. */\n",
       "const $T *a, const $T *b, int *last, int batch, int la, int lb",
       "    int *prev = malloc((size_t)(lb + 1) * sizeof *prev);\n    if (!prev)\n        return;\n"
       PAIR_HEAD "        int *cur = last + (size_t)p * (lb + 1);\n"
       "        for (int j = 0; j <= lb; j++)\n            cur[j] = j;\n        for (int i = 1; i <= la; i++) {\n"
       "            memcpy(prev, cur, (size_t)(lb + 1) * sizeof *prev);\n            cur[0] = i;\n"
       "            for (int j = 1; j <= lb; j++)\n"
       "                cur[j] = min3(prev[j - 1] + (s[i - 1] != t[j - 1]), prev[j] + 1, cur[j - 1] + 1);\n"
       "        }\n    }\n    free(prev);\n",
       "5*batch*la*lb", "$S*batch*(la+lb)+4*batch*(lb+1)", SEQ ";last=batch,lb+1", SEQ_FILL, NULL, NULL, NO_TAIL,
     .cuda = CU_MIN3
             "/* One thread per pair: the C code's recurrence, the current row kept in\n"
             " * the output and the previous one in the pair's slice of rows. */\n"
             "extern \"C\" __global__ void edit_last_row(const $T *a, const $T *b, int *last, int *rows, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * (lb + 1), *cur = last + p * (lb + 1);\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        cur[j] = j;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        for (int j = 0; j <= lb; j++)\n"
             "            prev[j] = cur[j];\n"
             "        cur[0] = i;\n"
             "        for (int j = 1; j <= lb; j++)\n"
             "            cur[j] = min3(prev[j - 1] + (s[i - 1] != t[j - 1]), prev[j] + 1, cur[j - 1] + 1);\n"
             "    }\n"
             "}\n",
     .launch = {{"edit_last_row", "(batch+255)/256", "256", NULL, "a,b,last,rows,batch,la,lb"}},
     .scratch = "rows:i32:(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("lcs-table", "u8 i32", PAIRST, "lcs",
       "#include <stddef.h>\n\n/* Longest-common-subsequence length tables of a batch of pairs:\n"
       " * L[i][j] = L[i-1][j-1] + 1 when a[i-1] == b[j-1], else max(L[i-1][j], L[i][j-1]). */\n",
       "const $T *a, const $T *b, int *table, int batch, int la, int lb",
       TABLE_HEAD "        for (int j = 0; j <= lb; j++)\n            D[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            D[i * w] = 0;\n            for (int j = 1; j <= lb; j++) {\n"
       "                int up = D[(i - 1) * w + j], left = D[i * w + j - 1];\n"
       "                D[i * w + j] = s[i - 1] == t[j - 1] ? D[(i - 1) * w + j - 1] + 1 : (up > left ? up : left);\n"
       "            }\n        }\n    }\n",
       "3*batch*la*lb", "$S*batch*(la+lb)+4*batch*(la+1)*(lb+1)", SEQ ";table=batch,la+1,lb+1", SEQ_FILL,
       NULL, NULL, NO_TAIL,
     .cuda = "/* One thread per pair: the C code's LCS table, row by row. */\n"
             "extern \"C\" __global__ void lcs(const $T *a, const $T *b, int *table, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const int w = lb + 1;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *D = table + p * (la + 1) * w;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        D[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        D[i * w] = 0;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            const int up = D[(i - 1) * w + j], left = D[i * w + j - 1];\n"
             "            D[i * w + j] = s[i - 1] == t[j - 1] ? D[(i - 1) * w + j - 1] + 1 : (up > left ? up : left);\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"lcs", "(batch+255)/256", "256", NULL, "a,b,table,batch,la,lb"}},
     .mapping = "one-pair-per-thread"),
    OP("lcs-length", "u8 i32 u16", PAIRS, "lcs",
       "#include <stdlib.h>\n\n/* Length of the longest common subsequence of each pair (a[p], b[p]),\n * with two table rows. */\n",
       "const $T *a, const $T *b, int *len, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        for (int j = 0; j <= lb; j++)\n            prev[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = 0;\n            for (int j = 1; j <= lb; j++) {\n"
       "                if (s[i - 1] == t[j - 1])\n                    cur[j] = prev[j - 1] + 1;\n"
       "                else\n                    cur[j] = prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];\n            }\n"
       SWAP_ROWS "        }\n        len[p] = prev[lb];\n    }\n    free(rows);\n",
       "3*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";len=batch", SEQ_FILL, NULL, NULL, NO_TAIL,
     .cuda = "/* One thread per pair: the LCS recurrence, two rows in the pair's slice of\n"
             " * rows. */\n"
             "extern \"C\" __global__ void lcs(const $T *a, const $T *b, int *len, int *rows, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = 0;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            if (s[i - 1] == t[j - 1])\n"
             "                cur[j] = prev[j - 1] + 1;\n"
             "            else\n"
             "                cur[j] = prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];\n"
             "        }\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    len[p] = prev[lb];\n"
             "}\n",
     .launch = {{"lcs", "(batch+255)/256", "256", NULL, "a,b,len,rows,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("lcs-single-table", "u8", SINGLE, "lcs",
       "/* The full LCS-length table of one long pair of sequences. */\n",
       "const $T *a, const $T *b, int *L, int la, int lb",
       "    int w = lb + 1;\n    for (int j = 0; j <= lb; j++)\n        L[j] = 0;\n"
       "    for (int i = 1; i <= la; i++) {\n        L[i * w] = 0;\n        for (int j = 1; j <= lb; j++) {\n"
       "            int up = L[(i - 1) * w + j], left = L[i * w + j - 1];\n"
       "            L[i * w + j] = a[i - 1] == b[j - 1] ? L[(i - 1) * w + j - 1] + 1 : (up > left ? up : left);\n"
       "        }\n    }\n",
       "3*la*lb", "$S*(la+lb)+4*(la+1)*(lb+1)", "a=la;b=lb;L=la+1,lb+1", SEQ_FILL, NULL, NULL, NO_TAIL,
     .cuda = "/* One block: row 0 and column 0, then the anti-diagonals d = i + j in\n"
             " * order, the block's threads sharing each diagonal, a barrier after it. */\n"
             "extern \"C\" __global__ void lcs(const $T *a, const $T *b, int *L, int la, int lb)\n"
             "{\n"
             "    const long long w = lb + 1;\n"
             "    for (int j = threadIdx.x; j <= lb; j += blockDim.x)\n"
             "        L[j] = 0;\n"
             "    for (int i = threadIdx.x; i <= la; i += blockDim.x)\n"
             "        L[i * w] = 0;\n"
             "    __syncthreads();\n"
             "    for (int d = 2; d <= la + lb; d++) {\n"
             "        const int lo = d - lb > 1 ? d - lb : 1, hi = d - 1 < la ? d - 1 : la;\n"
             "        for (int i = lo + threadIdx.x; i <= hi; i += blockDim.x) {\n"
             "            const int j = d - i;\n"
             "            const int up = L[(i - 1) * w + j], left = L[i * w + j - 1];\n"
             "            L[i * w + j] = a[i - 1] == b[j - 1] ? L[(i - 1) * w + j - 1] + 1 : (up > left ? up : left);\n"
             "        }\n"
             "        __syncthreads();\n"
             "    }\n"
             "}\n",
     .launch = {{"lcs", "1", "1024", NULL, "a,b,L,la,lb"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("lcs-last-row", "u8", PAIRST, "lcs_last_row",
       "#include <stddef.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
       "/* The last row of each pair's LCS table: last[p][j] is the LCS length of\n"
       " * a[p] and the first j symbols of b[p]. */\n",
       "const $T *a, const $T *b, int *last, int batch, int la, int lb",
       "    int *prev = malloc((size_t)(lb + 1) * sizeof *prev);\n    if (!prev)\n        return;\n"
       PAIR_HEAD "        int *cur = last + (size_t)p * (lb + 1);\n"
       "        for (int j = 0; j <= lb; j++)\n            cur[j] = 0;\n        for (int i = 1; i <= la; i++) {\n"
       "            memcpy(prev, cur, (size_t)(lb + 1) * sizeof *prev);\n"
       "            for (int j = 1; j <= lb; j++) {\n                if (s[i - 1] == t[j - 1])\n"
       "                    cur[j] = prev[j - 1] + 1;\n                else if (cur[j - 1] > prev[j])\n"
       "                    cur[j] = cur[j - 1];\n            }\n        }\n    }\n    free(prev);\n",
       "3*batch*la*lb", "$S*batch*(la+lb)+4*batch*(lb+1)", SEQ ";last=batch,lb+1", SEQ_FILL, NULL, NULL, NO_TAIL,
     .cuda = "/* One thread per pair: the C code's recurrence, the current row kept in\n"
             " * the output and the previous one in the pair's slice of rows. */\n"
             "extern \"C\" __global__ void lcs_last_row(const $T *a, const $T *b, int *last, int *rows, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * (lb + 1), *cur = last + p * (lb + 1);\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        cur[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        for (int j = 0; j <= lb; j++)\n"
             "            prev[j] = cur[j];\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            if (s[i - 1] == t[j - 1])\n"
             "                cur[j] = prev[j - 1] + 1;\n"
             "            else if (cur[j - 1] > prev[j])\n"
             "                cur[j] = cur[j - 1];\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"lcs_last_row", "(batch+255)/256", "256", NULL, "a,b,last,rows,batch,la,lb"}},
     .scratch = "rows:i32:(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("indel-distance", "u8", PAIRS, "indel_distance",
       "#include <stdlib.h>\n\n/* Insertion/deletion distance of each pair: la + lb - 2 LCS(a, b),\n"
       " * with the LCS length computed row by row. */\n",
       "const $T *a, const $T *b, int *dist, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        for (int j = 0; j <= lb; j++)\n            prev[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = 0;\n            for (int j = 1; j <= lb; j++) {\n"
       "                int best = prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];\n"
       "                cur[j] = s[i - 1] == t[j - 1] ? prev[j - 1] + 1 : best;\n            }\n"
       SWAP_ROWS "        }\n        dist[p] = la + lb - 2 * prev[lb];\n    }\n    free(rows);\n",
       "3*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";dist=batch", SEQ_FILL, NULL, NULL, NO_TAIL,
     .cuda = "/* One thread per pair: the LCS recurrence in two rows of the pair's slice\n"
             " * of rows, then la + lb - 2 LCS. */\n"
             "extern \"C\" __global__ void indel_distance(const $T *a, const $T *b, int *dist, int *rows, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = 0;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            const int best = prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];\n"
             "            cur[j] = s[i - 1] == t[j - 1] ? prev[j - 1] + 1 : best;\n"
             "        }\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    dist[p] = la + lb - 2 * prev[lb];\n"
             "}\n",
     .launch = {{"indel_distance", "(batch+255)/256", "256", NULL, "a,b,dist,rows,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("smith-waterman", "u8", PAIRS, "smith_waterman",
       "#include <stdlib.h>\n\n" MAX3 "/* Smith-Waterman local alignment score of each pair with a linear gap\n"
       " * penalty: H = max(0, diagonal + (match or mismatch), up - gap,\n"
       " * left - gap); the score is the largest H. */\n",
       "const $T *a, const $T *b, int *score, int match, int mismatch, int gap, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        int best = 0;\n        for (int j = 0; j <= lb; j++)\n            prev[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = 0;\n            for (int j = 1; j <= lb; j++) {\n"
       "                int h = max3(prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), prev[j] - gap,\n"
       "                             cur[j - 1] - gap);\n                cur[j] = h > 0 ? h : 0;\n"
       "                if (cur[j] > best)\n                    best = cur[j];\n            }\n"
       SWAP_ROWS "        }\n        score[p] = best;\n    }\n    free(rows);\n",
       "7*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";score=batch", SEQ_FILL, NULL,
       "match=2;mismatch=-1;gap=1", NO_TAIL,
     .cuda = CU_MAX3
             "/* One thread per pair: the local-alignment recurrence in two rows of the\n"
             " * pair's slice of rows, keeping the best cell. */\n"
             "extern \"C\" __global__ void smith_waterman(const $T *a, const $T *b, int *score, int *rows, int match, int mismatch,\n"
             "                                          int gap, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    int best = 0;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = 0;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            const int h = max3(prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), prev[j] - gap,\n"
             "                               cur[j - 1] - gap);\n"
             "            cur[j] = h > 0 ? h : 0;\n"
             "            if (cur[j] > best)\n"
             "                best = cur[j];\n"
             "        }\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    score[p] = best;\n"
             "}\n",
     .launch = {{"smith_waterman", "(batch+255)/256", "256", NULL, "a,b,score,rows,match,mismatch,gap,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("smith-waterman-matrix", "i32", SUBST, "smith_waterman",
       "#include <stdlib.h>\n\n" MAX3 "/* Smith-Waterman local alignment of protein-like sequences (symbols 0..19)\n"
       " * scored by a 20 x 20 substitution matrix, with a linear gap penalty. */\n",
       "const $T *a, const $T *b, const int *subst, int *score, int gap, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        int best = 0;\n        for (int j = 0; j <= lb; j++)\n            prev[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = 0;\n            const int *row = subst + 20 * s[i - 1];\n"
       "            for (int j = 1; j <= lb; j++) {\n"
       "                int h = max3(prev[j - 1] + row[t[j - 1]], prev[j] - gap, cur[j - 1] - gap);\n"
       "                cur[j] = h > 0 ? h : 0;\n                if (cur[j] > best)\n                    best = cur[j];\n            }\n"
       SWAP_ROWS "        }\n        score[p] = best;\n    }\n    free(rows);\n",
       "7*batch*la*lb", "$S*batch*(la+lb)+1600+4*batch", SEQ ";subst=20,20;score=batch",
       "a=int:0:20;b=int:0:20;subst=int:-4:7", NULL, "gap=4", NO_TAIL,
     .cuda = CU_MAX3
             "/* One thread per pair: the local-alignment recurrence scored by the\n"
             " * substitution matrix, two rows in the pair's slice of rows. */\n"
             "extern \"C\" __global__ void smith_waterman(const $T *a, const $T *b, const int *subst, int *score, int *rows, int gap,\n"
             "                                          int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    int best = 0;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = 0;\n"
             "        const int *row = subst + 20 * s[i - 1];\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            const int h = max3(prev[j - 1] + row[t[j - 1]], prev[j] - gap, cur[j - 1] - gap);\n"
             "            cur[j] = h > 0 ? h : 0;\n"
             "            if (cur[j] > best)\n"
             "                best = cur[j];\n"
             "        }\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    score[p] = best;\n"
             "}\n",
     .launch = {{"smith_waterman", "(batch+255)/256", "256", NULL, "a,b,subst,score,rows,gap,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("smith-waterman-float", "u8", PAIRS, "smith_waterman",
       "#include <stdlib.h>\n\n/* Smith-Waterman local alignment scores with real-valued scoring (match,\n"
       " * mismatch, linear gap penalty). */\n",
       "const $T *a, const $T *b, float *score, float match, float mismatch, float gap, int batch, int la, int lb",
       "    float *rows = malloc(2 * (size_t)(lb + 1) * sizeof *rows);\n    if (!rows)\n        return;\n"
       "    float *prev = rows, *cur = rows + lb + 1;\n"
       PAIR_HEAD "        float best = 0;\n        for (int j = 0; j <= lb; j++)\n            prev[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = 0;\n            for (int j = 1; j <= lb; j++) {\n"
       "                float h = prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch);\n"
       "                if (prev[j] - gap > h)\n                    h = prev[j] - gap;\n"
       "                if (cur[j - 1] - gap > h)\n                    h = cur[j - 1] - gap;\n"
       "                cur[j] = h > 0 ? h : 0;\n                if (cur[j] > best)\n                    best = cur[j];\n            }\n"
       "            float *tmp = prev;\n            prev = cur;\n            cur = tmp;\n"
       "        }\n        score[p] = best;\n    }\n    free(rows);\n",
       "7*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";score=batch", SEQ_FILL, NULL,
       "match=1.5;mismatch=-0.75;gap=0.6", {1e-4, 1e-5}, {0, 0},
     .cuda = "/* One thread per pair: the real-valued local-alignment recurrence in two\n"
             " * rows of the pair's slice of rows. */\n"
             "extern \"C\" __global__ void smith_waterman(const $T *a, const $T *b, float *score, float *rows, float match,\n"
             "                                          float mismatch, float gap, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    float *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    float best = 0;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = 0;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            float h = prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch);\n"
             "            if (prev[j] - gap > h)\n"
             "                h = prev[j] - gap;\n"
             "            if (cur[j - 1] - gap > h)\n"
             "                h = cur[j - 1] - gap;\n"
             "            cur[j] = h > 0 ? h : 0;\n"
             "            if (cur[j] > best)\n"
             "                best = cur[j];\n"
             "        }\n"
             "        float *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    score[p] = best;\n"
             "}\n",
     .launch = {{"smith_waterman", "(batch+255)/256", "256", NULL, "a,b,score,rows,match,mismatch,gap,batch,la,lb"}},
     .scratch = "rows:f32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("smith-waterman-table", "u8", PAIRST, "smith_waterman",
       "#include <stddef.h>\n\n" MAX3 "/* Smith-Waterman score tables H (linear gap) of a batch of pairs; row 0\n"
       " * and column 0 are zero. */\n",
       "const $T *a, const $T *b, int *table, int match, int mismatch, int gap, int batch, int la, int lb",
       TABLE_HEAD "        for (int j = 0; j <= lb; j++)\n            D[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            D[i * w] = 0;\n            for (int j = 1; j <= lb; j++) {\n"
       "                int h = max3(D[(i - 1) * w + j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch),\n"
       "                             D[(i - 1) * w + j] - gap, D[i * w + j - 1] - gap);\n"
       "                D[i * w + j] = h > 0 ? h : 0;\n            }\n        }\n    }\n",
       "7*batch*la*lb", "$S*batch*(la+lb)+4*batch*(la+1)*(lb+1)", SEQ ";table=batch,la+1,lb+1", SEQ_FILL, NULL,
       "match=3;mismatch=-1;gap=2", NO_TAIL,
     .cuda = CU_MAX3
             "/* One thread per pair: the C code's score table H, row by row. */\n"
             "extern \"C\" __global__ void smith_waterman(const $T *a, const $T *b, int *table, int match, int mismatch, int gap,\n"
             "                                          int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const int w = lb + 1;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *D = table + p * (la + 1) * w;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        D[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        D[i * w] = 0;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            const int h = max3(D[(i - 1) * w + j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch),\n"
             "                               D[(i - 1) * w + j] - gap, D[i * w + j - 1] - gap);\n"
             "            D[i * w + j] = h > 0 ? h : 0;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"smith_waterman", "(batch+255)/256", "256", NULL, "a,b,table,match,mismatch,gap,batch,la,lb"}},
     .mapping = "one-pair-per-thread"),
    OP("smith-waterman-affine", "u8", PAIRS, "smith_waterman",
       "#include <stdlib.h>\n\n" MAX3 "/* Smith-Waterman with affine gaps (Gotoh): a gap of length k costs\n"
       " * open + (k - 1) extend.  E tracks gaps along a row, F along a column. */\n",
       "const $T *a, const $T *b, int *score, int match, int mismatch, int open, int extend, int batch, int la, int lb",
       "    int *buf = malloc(3 * (size_t)(lb + 1) * sizeof *buf);\n    if (!buf)\n        return;\n"
       "    int *h = buf, *hprev = buf + lb + 1, *f = buf + 2 * (lb + 1);\n"
       PAIR_HEAD "        int best = 0;\n        for (int j = 0; j <= lb; j++) {\n            hprev[j] = 0;\n"
       "            f[j] = -open;\n        }\n        for (int i = 1; i <= la; i++) {\n            int e = -open;\n"
       "            h[0] = 0;\n            for (int j = 1; j <= lb; j++) {\n"
       "                e = (e - extend > h[j - 1] - open) ? e - extend : h[j - 1] - open;\n"
       "                f[j] = (f[j] - extend > hprev[j] - open) ? f[j] - extend : hprev[j] - open;\n"
       "                int v = max3(hprev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), e, f[j]);\n"
       "                h[j] = v > 0 ? v : 0;\n                if (h[j] > best)\n                    best = h[j];\n            }\n"
       "            int *tmp = hprev;\n            hprev = h;\n            h = tmp;\n"
       "        }\n        score[p] = best;\n    }\n"
       "    free(buf);\n",
       "12*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";score=batch", SEQ_FILL, NULL,
       "match=2;mismatch=-3;open=5;extend=1", NO_TAIL,
     .cuda = CU_MAX3
             "/* One thread per pair: Gotoh's recurrence, the rows h, hprev and f in the\n"
             " * pair's slice of rows. */\n"
             "extern \"C\" __global__ void smith_waterman(const $T *a, const $T *b, int *score, int *rows, int match, int mismatch,\n"
             "                                          int open, int extend, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *h = rows + p * 3 * (lb + 1), *hprev = h + lb + 1, *f = h + 2 * (lb + 1);\n"
             "    int best = 0;\n"
             "    for (int j = 0; j <= lb; j++) {\n"
             "        hprev[j] = 0;\n"
             "        f[j] = -open;\n"
             "    }\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        int e = -open;\n"
             "        h[0] = 0;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            e = (e - extend > h[j - 1] - open) ? e - extend : h[j - 1] - open;\n"
             "            f[j] = (f[j] - extend > hprev[j] - open) ? f[j] - extend : hprev[j] - open;\n"
             "            const int v = max3(hprev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), e, f[j]);\n"
             "            h[j] = v > 0 ? v : 0;\n"
             "            if (h[j] > best)\n"
             "                best = h[j];\n"
             "        }\n"
             "        int *tmp = hprev;\n"
             "        hprev = h;\n"
             "        h = tmp;\n"
             "    }\n"
             "    score[p] = best;\n"
             "}\n",
     .launch = {{"smith_waterman", "(batch+255)/256", "256", NULL, "a,b,score,rows,match,mismatch,open,extend,batch,la,lb"}},
     .scratch = "rows:i32:3*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("smith-waterman-position", "u8", PAIRS, "smith_waterman",
       "#include <stdlib.h>\n\n" MAX3 "/* Smith-Waterman (linear gap) best local score of each pair and where it\n"
       " * ends: out[p] = (score, i, j) for the first maximal cell in row-major\n"
       " * order, (0, 0, 0) when no cell is positive. */\n",
       "const $T *a, const $T *b, int *out, int match, int mismatch, int gap, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        int best = 0, bi = 0, bj = 0;\n        for (int j = 0; j <= lb; j++)\n            prev[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = 0;\n            for (int j = 1; j <= lb; j++) {\n"
       "                int h = max3(prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), prev[j] - gap,\n"
       "                             cur[j - 1] - gap);\n                cur[j] = h > 0 ? h : 0;\n"
       "                if (cur[j] > best) {\n                    best = cur[j];\n                    bi = i;\n"
       "                    bj = j;\n                }\n            }\n"
       SWAP_ROWS "        }\n        out[3 * p] = best;\n        out[3 * p + 1] = bi;\n        out[3 * p + 2] = bj;\n"
       "    }\n    free(rows);\n",
       "7*batch*la*lb", "$S*batch*(la+lb)+12*batch", SEQ ";out=batch,3", SEQ_FILL, NULL,
       "match=2;mismatch=-1;gap=1", NO_TAIL,
     .cuda = CU_MAX3
             "/* One thread per pair: the local-alignment recurrence in two rows of the\n"
             " * pair's slice of rows, keeping the first best cell in row-major order. */\n"
             "extern \"C\" __global__ void smith_waterman(const $T *a, const $T *b, int *out, int *rows, int match, int mismatch,\n"
             "                                          int gap, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    int best = 0, bi = 0, bj = 0;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = 0;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            const int h = max3(prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), prev[j] - gap,\n"
             "                               cur[j - 1] - gap);\n"
             "            cur[j] = h > 0 ? h : 0;\n"
             "            if (cur[j] > best) {\n"
             "                best = cur[j];\n"
             "                bi = i;\n"
             "                bj = j;\n"
             "            }\n"
             "        }\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    out[3 * p] = best;\n"
             "    out[3 * p + 1] = bi;\n"
             "    out[3 * p + 2] = bj;\n"
             "}\n",
     .launch = {{"smith_waterman", "(batch+255)/256", "256", NULL, "a,b,out,rows,match,mismatch,gap,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("smith-waterman-single", "u8", SINGLE, "smith_waterman",
       MAX3 "/* The full Smith-Waterman table (linear gap) of one long pair. */\n",
       "const $T *a, const $T *b, int *H, int match, int mismatch, int gap, int la, int lb",
       "    int w = lb + 1;\n    for (int j = 0; j <= lb; j++)\n        H[j] = 0;\n"
       "    for (int i = 1; i <= la; i++) {\n        H[i * w] = 0;\n        for (int j = 1; j <= lb; j++) {\n"
       "            int h = max3(H[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? match : mismatch),\n"
       "                         H[(i - 1) * w + j] - gap, H[i * w + j - 1] - gap);\n"
       "            H[i * w + j] = h > 0 ? h : 0;\n        }\n    }\n",
       "7*la*lb", "$S*(la+lb)+4*(la+1)*(lb+1)", "a=la;b=lb;H=la+1,lb+1", SEQ_FILL, NULL,
       "match=2;mismatch=-1;gap=1", NO_TAIL,
     .cuda = CU_MAX3
             "/* One block: row 0 and column 0, then the anti-diagonals d = i + j in\n"
             " * order, the block's threads sharing each diagonal, a barrier after it. */\n"
             "extern \"C\" __global__ void smith_waterman(const $T *a, const $T *b, int *H, int match, int mismatch, int gap, int la,\n"
             "                                          int lb)\n"
             "{\n"
             "    const long long w = lb + 1;\n"
             "    for (int j = threadIdx.x; j <= lb; j += blockDim.x)\n"
             "        H[j] = 0;\n"
             "    for (int i = threadIdx.x; i <= la; i += blockDim.x)\n"
             "        H[i * w] = 0;\n"
             "    __syncthreads();\n"
             "    for (int d = 2; d <= la + lb; d++) {\n"
             "        const int lo = d - lb > 1 ? d - lb : 1, hi = d - 1 < la ? d - 1 : la;\n"
             "        for (int i = lo + threadIdx.x; i <= hi; i += blockDim.x) {\n"
             "            const int j = d - i;\n"
             "            const int h = max3(H[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? match : mismatch),\n"
             "                               H[(i - 1) * w + j] - gap, H[i * w + j - 1] - gap);\n"
             "            H[i * w + j] = h > 0 ? h : 0;\n"
             "        }\n"
             "        __syncthreads();\n"
             "    }\n"
             "}\n",
     .launch = {{"smith_waterman", "1", "1024", NULL, "a,b,H,match,mismatch,gap,la,lb"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("needleman-wunsch", "u8", PAIRS, "needleman_wunsch",
       "#include <stdlib.h>\n\n" MAX3 "/* Needleman-Wunsch global alignment score of each pair with a linear gap\n"
       " * penalty (borders -gap * length). */\n",
       "const $T *a, const $T *b, int *score, int match, int mismatch, int gap, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        for (int j = 0; j <= lb; j++)\n            prev[j] = -gap * j;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = -gap * i;\n            for (int j = 1; j <= lb; j++)\n"
       "                cur[j] = max3(prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), prev[j] - gap,\n"
       "                              cur[j - 1] - gap);\n"
       SWAP_ROWS "        }\n        score[p] = prev[lb];\n    }\n    free(rows);\n",
       "6*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";score=batch", SEQ_FILL, NULL,
       "match=1;mismatch=-1;gap=2", NO_TAIL,
     .cuda = CU_MAX3
             "/* One thread per pair: the global-alignment recurrence in two rows of the\n"
             " * pair's slice of rows. */\n"
             "extern \"C\" __global__ void needleman_wunsch(const $T *a, const $T *b, int *score, int *rows, int match, int mismatch,\n"
             "                                            int gap, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = -gap * j;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = -gap * i;\n"
             "        for (int j = 1; j <= lb; j++)\n"
             "            cur[j] = max3(prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), prev[j] - gap, cur[j - 1] - gap);\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    score[p] = prev[lb];\n"
             "}\n",
     .launch = {{"needleman_wunsch", "(batch+255)/256", "256", NULL, "a,b,score,rows,match,mismatch,gap,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("needleman-wunsch-table", "u8", PAIRST, "needleman_wunsch",
       "#include <stddef.h>\n\n" MAX3 "/* Needleman-Wunsch score tables (linear gap) of a batch of pairs. */\n",
       "const $T *a, const $T *b, int *table, int match, int mismatch, int gap, int batch, int la, int lb",
       TABLE_HEAD "        for (int j = 0; j <= lb; j++)\n            D[j] = -gap * j;\n"
       "        for (int i = 1; i <= la; i++) {\n            D[i * w] = -gap * i;\n            for (int j = 1; j <= lb; j++)\n"
       "                D[i * w + j] = max3(D[(i - 1) * w + j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch),\n"
       "                                    D[(i - 1) * w + j] - gap, D[i * w + j - 1] - gap);\n        }\n    }\n",
       "6*batch*la*lb", "$S*batch*(la+lb)+4*batch*(la+1)*(lb+1)", SEQ ";table=batch,la+1,lb+1", SEQ_FILL, NULL,
       "match=2;mismatch=-1;gap=1", NO_TAIL,
     .cuda = CU_MAX3
             "/* One thread per pair: the C code's score table, row by row. */\n"
             "extern \"C\" __global__ void needleman_wunsch(const $T *a, const $T *b, int *table, int match, int mismatch, int gap,\n"
             "                                            int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const int w = lb + 1;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *D = table + p * (la + 1) * w;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        D[j] = -gap * j;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        D[i * w] = -gap * i;\n"
             "        for (int j = 1; j <= lb; j++)\n"
             "            D[i * w + j] = max3(D[(i - 1) * w + j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch),\n"
             "                                D[(i - 1) * w + j] - gap, D[i * w + j - 1] - gap);\n"
             "    }\n"
             "}\n",
     .launch = {{"needleman_wunsch", "(batch+255)/256", "256", NULL, "a,b,table,match,mismatch,gap,batch,la,lb"}},
     .mapping = "one-pair-per-thread"),
    OP("needleman-wunsch-matrix", "i32", SUBST, "needleman_wunsch",
       "#include <stdlib.h>\n\n" MAX3 "/* Needleman-Wunsch global alignment of sequences over 20 symbols scored\n"
       " * by a 20 x 20 substitution matrix, linear gap penalty. */\n",
       "const $T *a, const $T *b, const int *subst, int *score, int gap, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        for (int j = 0; j <= lb; j++)\n            prev[j] = -gap * j;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = -gap * i;\n"
       "            for (int j = 1; j <= lb; j++)\n"
       "                cur[j] = max3(prev[j - 1] + subst[20 * s[i - 1] + t[j - 1]], prev[j] - gap, cur[j - 1] - gap);\n"
       SWAP_ROWS "        }\n        score[p] = prev[lb];\n    }\n    free(rows);\n",
       "6*batch*la*lb", "$S*batch*(la+lb)+1600+4*batch", SEQ ";subst=20,20;score=batch",
       "a=int:0:20;b=int:0:20;subst=int:-4:7", NULL, "gap=4", NO_TAIL,
     .cuda = CU_MAX3
             "/* One thread per pair: the global-alignment recurrence scored by the\n"
             " * substitution matrix, two rows in the pair's slice of rows. */\n"
             "extern \"C\" __global__ void needleman_wunsch(const $T *a, const $T *b, const int *subst, int *score, int *rows,\n"
             "                                            int gap, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = -gap * j;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = -gap * i;\n"
             "        for (int j = 1; j <= lb; j++)\n"
             "            cur[j] = max3(prev[j - 1] + subst[20 * s[i - 1] + t[j - 1]], prev[j] - gap, cur[j - 1] - gap);\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    score[p] = prev[lb];\n"
             "}\n",
     .launch = {{"needleman_wunsch", "(batch+255)/256", "256", NULL, "a,b,subst,score,rows,gap,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("needleman-wunsch-affine", "u8", PAIRS, "needleman_wunsch",
       "#include <stdlib.h>\n\n" MAX3 "#define NEG (-1000000000 / 2)\n\n"
       "/* Global alignment with affine gaps (Gotoh): a gap of length k costs\n"
       " * open + (k - 1) extend; E holds alignments ending in a gap in a, F in\n * a gap in b. */\n",
       "const $T *a, const $T *b, int *score, int match, int mismatch, int open, int extend, int batch, int la, int lb",
       "    int *buf = malloc(3 * (size_t)(lb + 1) * sizeof *buf);\n    if (!buf)\n        return;\n"
       "    int *h = buf, *hprev = buf + lb + 1, *f = buf + 2 * (lb + 1);\n"
       PAIR_HEAD "        hprev[0] = 0;\n        f[0] = NEG;\n        for (int j = 1; j <= lb; j++) {\n"
       "            hprev[j] = -open - (j - 1) * extend;\n            f[j] = NEG;\n        }\n"
       "        for (int i = 1; i <= la; i++) {\n            int e = NEG;\n            h[0] = -open - (i - 1) * extend;\n"
       "            for (int j = 1; j <= lb; j++) {\n"
       "                e = (e - extend > h[j - 1] - open) ? e - extend : h[j - 1] - open;\n"
       "                f[j] = (f[j] - extend > hprev[j] - open) ? f[j] - extend : hprev[j] - open;\n"
       "                h[j] = max3(hprev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), e, f[j]);\n"
       "            }\n            int *tmp = hprev;\n            hprev = h;\n            h = tmp;\n"
       "        }\n        score[p] = hprev[lb];\n    }\n"
       "    free(buf);\n",
       "12*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";score=batch", SEQ_FILL, NULL,
       "match=2;mismatch=-2;open=4;extend=1", NO_TAIL,
     .cuda = CU_MAX3
             "#define NEG (-1000000000 / 2)\n"
             "\n"
             "/* One thread per pair: Gotoh's global recurrence, the rows h, hprev and f\n"
             " * in the pair's slice of rows. */\n"
             "extern \"C\" __global__ void needleman_wunsch(const $T *a, const $T *b, int *score, int *rows, int match, int mismatch,\n"
             "                                            int open, int extend, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *h = rows + p * 3 * (lb + 1), *hprev = h + lb + 1, *f = h + 2 * (lb + 1);\n"
             "    hprev[0] = 0;\n"
             "    f[0] = NEG;\n"
             "    for (int j = 1; j <= lb; j++) {\n"
             "        hprev[j] = -open - (j - 1) * extend;\n"
             "        f[j] = NEG;\n"
             "    }\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        int e = NEG;\n"
             "        h[0] = -open - (i - 1) * extend;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            e = (e - extend > h[j - 1] - open) ? e - extend : h[j - 1] - open;\n"
             "            f[j] = (f[j] - extend > hprev[j] - open) ? f[j] - extend : hprev[j] - open;\n"
             "            h[j] = max3(hprev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), e, f[j]);\n"
             "        }\n"
             "        int *tmp = hprev;\n"
             "        hprev = h;\n"
             "        h = tmp;\n"
             "    }\n"
             "    score[p] = hprev[lb];\n"
             "}\n",
     .launch = {{"needleman_wunsch", "(batch+255)/256", "256", NULL, "a,b,score,rows,match,mismatch,open,extend,batch,la,lb"}},
     .scratch = "rows:i32:3*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("needleman-wunsch-single", "u8", SINGLE, "needleman_wunsch",
       MAX3 "/* The full Needleman-Wunsch table (linear gap) of one long pair. */\n",
       "const $T *a, const $T *b, int *D, int match, int mismatch, int gap, int la, int lb",
       "    int w = lb + 1;\n    for (int j = 0; j <= lb; j++)\n        D[j] = -gap * j;\n"
       "    for (int i = 1; i <= la; i++) {\n        D[i * w] = -gap * i;\n        for (int j = 1; j <= lb; j++)\n"
       "            D[i * w + j] = max3(D[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? match : mismatch),\n"
       "                                D[(i - 1) * w + j] - gap, D[i * w + j - 1] - gap);\n    }\n",
       "6*la*lb", "$S*(la+lb)+4*(la+1)*(lb+1)", "a=la;b=lb;D=la+1,lb+1", SEQ_FILL, NULL,
       "match=1;mismatch=-1;gap=1", NO_TAIL,
     .cuda = CU_MAX3
             "/* One block: row 0 and column 0, then the anti-diagonals d = i + j in\n"
             " * order, the block's threads sharing each diagonal, a barrier after it. */\n"
             "extern \"C\" __global__ void needleman_wunsch(const $T *a, const $T *b, int *D, int match, int mismatch, int gap, int la,\n"
             "                                            int lb)\n"
             "{\n"
             "    const long long w = lb + 1;\n"
             "    for (int j = threadIdx.x; j <= lb; j += blockDim.x)\n"
             "        D[j] = -gap * j;\n"
             "    for (int i = threadIdx.x; i <= la; i += blockDim.x)\n"
             "        D[i * w] = -gap * i;\n"
             "    __syncthreads();\n"
             "    for (int d = 2; d <= la + lb; d++) {\n"
             "        const int lo = d - lb > 1 ? d - lb : 1, hi = d - 1 < la ? d - 1 : la;\n"
             "        for (int i = lo + threadIdx.x; i <= hi; i += blockDim.x) {\n"
             "            const int j = d - i;\n"
             "            D[i * w + j] = max3(D[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? match : mismatch),\n"
             "                                D[(i - 1) * w + j] - gap, D[i * w + j - 1] - gap);\n"
             "        }\n"
             "        __syncthreads();\n"
             "    }\n"
             "}\n",
     .launch = {{"needleman_wunsch", "1", "1024", NULL, "a,b,D,match,mismatch,gap,la,lb"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("needleman-wunsch-float", "u8", PAIRS, "needleman_wunsch",
       "#include <stdlib.h>\n\n/* Needleman-Wunsch global alignment score with real-valued scoring. */\n",
       "const $T *a, const $T *b, double *score, double match, double mismatch, double gap, int batch, int la, int lb",
       "    double *rows = malloc(2 * (size_t)(lb + 1) * sizeof *rows);\n    if (!rows)\n        return;\n"
       "    double *prev = rows, *cur = rows + lb + 1;\n"
       PAIR_HEAD "        for (int j = 0; j <= lb; j++)\n            prev[j] = -gap * j;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = -gap * i;\n            for (int j = 1; j <= lb; j++) {\n"
       "                double h = prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch);\n"
       "                if (prev[j] - gap > h)\n                    h = prev[j] - gap;\n"
       "                if (cur[j - 1] - gap > h)\n                    h = cur[j - 1] - gap;\n                cur[j] = h;\n            }\n"
       "            double *tmp = prev;\n            prev = cur;\n            cur = tmp;\n"
       "        }\n        score[p] = prev[lb];\n    }\n    free(rows);\n",
       "6*batch*la*lb", "$S*batch*(la+lb)+8*batch", SEQ ";score=batch", SEQ_FILL, NULL,
       "match=1.25;mismatch=-0.5;gap=0.75", {1e-9, 1e-9}, {0, 0},
     .cuda = "/* One thread per pair: the real-valued global recurrence in two rows of\n"
             " * the pair's slice of rows. */\n"
             "extern \"C\" __global__ void needleman_wunsch(const $T *a, const $T *b, double *score, double *rows, double match,\n"
             "                                            double mismatch, double gap, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    double *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = -gap * j;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = -gap * i;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            double h = prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch);\n"
             "            if (prev[j] - gap > h)\n"
             "                h = prev[j] - gap;\n"
             "            if (cur[j - 1] - gap > h)\n"
             "                h = cur[j - 1] - gap;\n"
             "            cur[j] = h;\n"
             "        }\n"
             "        double *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    score[p] = prev[lb];\n"
             "}\n",
     .launch = {{"needleman_wunsch", "(batch+255)/256", "256", NULL, "a,b,score,rows,match,mismatch,gap,batch,la,lb"}},
     .scratch = "rows:f64:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("semi-global", "u8", PAIRS, "fitting_alignment",
       "#include <stdlib.h>\n\n" MAX3 "/* Fitting (semi-global) alignment: all of a aligned against any substring\n"
       " * of b.  Leading gaps in b are free (row 0 is zero) and the score is the\n"
       " * best cell of the last row. */\n",
       "const $T *a, const $T *b, int *score, int match, int mismatch, int gap, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        for (int j = 0; j <= lb; j++)\n            prev[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = -gap * i;\n            for (int j = 1; j <= lb; j++)\n"
       "                cur[j] = max3(prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), prev[j] - gap,\n"
       "                              cur[j - 1] - gap);\n"
       SWAP_ROWS "        }\n        int best = prev[0];\n        for (int j = 1; j <= lb; j++)\n"
       "            if (prev[j] > best)\n                best = prev[j];\n        score[p] = best;\n    }\n"
       "    free(rows);\n",
       "6*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";score=batch", SEQ_FILL, NULL,
       "match=2;mismatch=-1;gap=2", NO_TAIL,
     .cuda = CU_MAX3
             "/* One thread per pair: the fitting-alignment recurrence in two rows of the\n"
             " * pair's slice of rows, then the best cell of the last row. */\n"
             "extern \"C\" __global__ void fitting_alignment(const $T *a, const $T *b, int *score, int *rows, int match, int mismatch,\n"
             "                                             int gap, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = -gap * i;\n"
             "        for (int j = 1; j <= lb; j++)\n"
             "            cur[j] = max3(prev[j - 1] + (s[i - 1] == t[j - 1] ? match : mismatch), prev[j] - gap, cur[j - 1] - gap);\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    int best = prev[0];\n"
             "    for (int j = 1; j <= lb; j++)\n"
             "        if (prev[j] > best)\n"
             "            best = prev[j];\n"
             "    score[p] = best;\n"
             "}\n",
     .launch = {{"fitting_alignment", "(batch+255)/256", "256", NULL, "a,b,score,rows,match,mismatch,gap,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
#define DTW_PRE(cost)                                                                               \
    "#include <math.h>\n#include <stdlib.h>\n\n/* Dynamic time warping distance of each pair of series (a[p], b[p]):\n" \
    " * D[i][j] = " cost " + min(D[i-1][j], D[i][j-1], D[i-1][j-1]), D[0][0] = 0\n"  \
    " * and the rest of row and column 0 infinite. */\n"
#define DTW_BODY(cost)                                                                              \
    "    $T *rows = malloc(2 * (size_t)(lb + 1) * sizeof *rows);\n    if (!rows)\n        return;\n" \
    "    $T *prev = rows, *cur = rows + lb + 1;\n" PAIR_HEAD                                                       \
    "        prev[0] = 0;\n        for (int j = 1; j <= lb; j++)\n            prev[j] = INFINITY;\n"      \
    "        for (int i = 1; i <= la; i++) {\n            cur[0] = INFINITY;\n"                       \
    "            for (int j = 1; j <= lb; j++) {\n                $T m = prev[j - 1];\n"                \
    "                if (prev[j] < m)\n                    m = prev[j];\n"                            \
    "                if (cur[j - 1] < m)\n                    m = cur[j - 1];\n"                         \
    "                cur[j] = " cost " + m;\n            }\n"                                           \
    "            $T *tmp = prev;\n            prev = cur;\n            cur = tmp;\n        }\n"           \
    "        dist[p] = prev[lb];\n    }\n    free(rows);\n"
    OP("dtw", "f32", PAIRS, "dtw", DTW_PRE("|a_i - b_j|"),
       "const $T *a, const $T *b, $T *dist, int batch, int la, int lb", DTW_BODY("fabs$F(s[i - 1] - t[j - 1])"),
       "5*batch*la*lb", "$S*batch*(la+lb)+$S*batch", SEQ ";dist=batch", NULL, NULL, NULL, {1e-4, 1e-5}, {0, 0},
     .cuda = "#define INF __int_as_float(0x7f800000)\n"
             "#define COST fabsf(s[i - 1] - t[j - 1])\n"
             "\n"
             CU_DTW_PAIR,
     .launch = {{"dtw", "(batch+255)/256", "256", NULL, "a,b,dist,rows,batch,la,lb"}},
     .scratch = "rows:$T:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("dtw-squared", "f64", PAIRS, "dtw", DTW_PRE("(a_i - b_j)^2"),
       "const $T *a, const $T *b, $T *dist, int batch, int la, int lb",
       DTW_BODY("(s[i - 1] - t[j - 1]) * (s[i - 1] - t[j - 1])"),
       "6*batch*la*lb", "$S*batch*(la+lb)+$S*batch", SEQ ";dist=batch", NULL, NULL, NULL, NO_TAIL,
     .cuda = "#define INF __longlong_as_double(0x7ff0000000000000LL)\n"
             "#define COST __dmul_rn(s[i - 1] - t[j - 1], s[i - 1] - t[j - 1]) /* rounded before the add, as in C */\n"
             "\n"
             CU_DTW_PAIR,
     .launch = {{"dtw", "(batch+255)/256", "256", NULL, "a,b,dist,rows,batch,la,lb"}},
     .scratch = "rows:$T:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("dtw-band", "f32", BAND, "dtw",
       "#include <math.h>\n#include <stdlib.h>\n\n"
       "/* Dynamic time warping restricted to a Sakoe-Chiba band: cells with\n"
       " * |i - j| > w are infinite (w >= |la - lb|, so the end is reachable);\n"
       " * D[i][j] = |a_i - b_j| + min of the three predecessors. */\n",
       "const $T *a, const $T *b, $T *dist, int batch, int la, int lb, int w",
       "    $T *rows = malloc(2 * (size_t)(lb + 1) * sizeof *rows);\n    if (!rows)\n        return;\n"
       "    $T *prev = rows, *cur = rows + lb + 1;\n" PAIR_HEAD
       "        prev[0] = 0;\n        for (int j = 1; j <= lb; j++)\n            prev[j] = INFINITY;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = INFINITY;\n"
       "            for (int j = 1; j <= lb; j++) {\n                if (abs(i - j) > w) {\n"
       "                    cur[j] = INFINITY;\n                    continue;\n                }\n"
       "                $T m = prev[j - 1];\n                if (prev[j] < m)\n                    m = prev[j];\n"
       "                if (cur[j - 1] < m)\n                    m = cur[j - 1];\n"
       "                cur[j] = fabs$F(s[i - 1] - t[j - 1]) + m;\n            }\n"
       "            $T *tmp = prev;\n            prev = cur;\n            cur = tmp;\n        }\n"
       "        dist[p] = prev[lb];\n    }\n    free(rows);\n",
       "5*batch*la*(2*w+1)", "$S*batch*(la+lb)+$S*batch", SEQ ";dist=batch", NULL, NULL, NULL, {1e-4, 1e-5},
       {0, 0},
     .cuda = "#define INF __int_as_float(0x7f800000)\n"
             "\n"
             "/* One thread per pair: the banded warping recurrence, two rows in the\n"
             " * pair's slice of rows; cells with |i - j| > w are infinite. */\n"
             "extern \"C\" __global__ void dtw(const $T *a, const $T *b, $T *dist, $T *rows, int batch, int la, int lb, int w)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    $T *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    prev[0] = 0;\n"
             "    for (int j = 1; j <= lb; j++)\n"
             "        prev[j] = INF;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = INF;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            if (abs(i - j) > w) {\n"
             "                cur[j] = INF;\n"
             "                continue;\n"
             "            }\n"
             "            $T m = prev[j - 1];\n"
             "            if (prev[j] < m)\n"
             "                m = prev[j];\n"
             "            if (cur[j - 1] < m)\n"
             "                m = cur[j - 1];\n"
             "            cur[j] = fabsf(s[i - 1] - t[j - 1]) + m;\n"
             "        }\n"
             "        $T *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    dist[p] = prev[lb];\n"
             "}\n",
     .launch = {{"dtw", "(batch+255)/256", "256", NULL, "a,b,dist,rows,batch,la,lb,w"}},
     .scratch = "rows:$T:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("dtw-multivariate", "f32", PAIRS, "dtw",
       "#include <math.h>\n#include <stdlib.h>\n\n"
       "/* Dynamic time warping of 3-dimensional series (a[p] is la x 3, b[p] is\n"
       " * lb x 3) with the Euclidean distance between samples as the cost. */\n"
       "static $T dist3(const $T *x, const $T *y)\n{\n    $T dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];\n"
       "    return sqrt$F(dx * dx + dy * dy + dz * dz);\n}\n\n",
       "const $T *a, const $T *b, $T *dist, int batch, int la, int lb",
       "    $T *rows = malloc(2 * (size_t)(lb + 1) * sizeof *rows);\n    if (!rows)\n        return;\n"
       "    $T *prev = rows, *cur = rows + lb + 1;\n"
       "    for (int p = 0; p < batch; p++) {\n        const $T *s = a + (size_t)p * la * 3, *t = b + (size_t)p * lb * 3;\n"
       "        prev[0] = 0;\n        for (int j = 1; j <= lb; j++)\n            prev[j] = INFINITY;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = INFINITY;\n"
       "            for (int j = 1; j <= lb; j++) {\n                $T m = prev[j - 1];\n"
       "                if (prev[j] < m)\n                    m = prev[j];\n"
       "                if (cur[j - 1] < m)\n                    m = cur[j - 1];\n"
       "                cur[j] = dist3(s + 3 * (i - 1), t + 3 * (j - 1)) + m;\n            }\n"
       "            $T *tmp = prev;\n            prev = cur;\n            cur = tmp;\n        }\n"
       "        dist[p] = prev[lb];\n    }\n    free(rows);\n",
       "14*batch*la*lb", "3*$S*batch*(la+lb)+$S*batch", "a=batch,la,3;b=batch,lb,3;dist=batch", NULL, NULL, NULL,
       {1e-4, 1e-5}, {0, 0},
     .cuda = "#define INF __int_as_float(0x7f800000)\n"
             "\n"
             "/* Euclidean distance of two 3-dimensional samples; the squares are rounded\n"
             " * before the adds (no fused multiply-add), as in the C code. */\n"
             "__device__ $T dist3(const $T *x, const $T *y)\n"
             "{\n"
             "    const $T dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];\n"
             "    return sqrtf(__fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz)));\n"
             "}\n"
             "\n"
             "/* One thread per pair: the warping recurrence over 3-dimensional samples,\n"
             " * two rows in the pair's slice of rows. */\n"
             "extern \"C\" __global__ void dtw(const $T *a, const $T *b, $T *dist, $T *rows, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la * 3, *t = b + p * lb * 3;\n"
             "    $T *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    prev[0] = 0;\n"
             "    for (int j = 1; j <= lb; j++)\n"
             "        prev[j] = INF;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = INF;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            $T m = prev[j - 1];\n"
             "            if (prev[j] < m)\n"
             "                m = prev[j];\n"
             "            if (cur[j - 1] < m)\n"
             "                m = cur[j - 1];\n"
             "            cur[j] = dist3(s + 3 * (i - 1), t + 3 * (j - 1)) + m;\n"
             "        }\n"
             "        $T *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    dist[p] = prev[lb];\n"
             "}\n",
     .launch = {{"dtw", "(batch+255)/256", "256", NULL, "a,b,dist,rows,batch,la,lb"}},
     .scratch = "rows:$T:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("dtw-table", "f32", PAIRST, "dtw",
       "#include <math.h>\n#include <stddef.h>\n\n/* Full dynamic-time-warping tables of a batch of series pairs: D[i][j]\n"
       " * (0-based, la x lb) is |a_i - b_j| plus the smallest of D[i-1][j],\n"
       " * D[i][j-1] and D[i-1][j-1] among those that exist. */\n",
       "const $T *a, const $T *b, $T *table, int batch, int la, int lb",
       PAIR_HEAD "        $T *D = table + (size_t)p * la * lb;\n"
       "        for (int i = 0; i < la; i++) {\n            for (int j = 0; j < lb; j++) {\n"
       "                $T m = 0;\n                if (i > 0 && j > 0) {\n"
       "                    m = fmin$F(D[(i - 1) * lb + j - 1], fmin$F(D[(i - 1) * lb + j], D[i * lb + j - 1]));\n"
       "                } else if (i > 0) {\n                    m = D[(i - 1) * lb];\n"
       "                } else if (j > 0) {\n                    m = D[j - 1];\n                }\n"
       "                D[i * lb + j] = fabs$F(s[i] - t[j]) + m;\n            }\n        }\n    }\n",
       "5*batch*la*lb", "2*$S*batch*(la+lb)+$S*batch*la*lb", "a=batch,la;b=batch,lb;table=batch,la,lb", NULL, NULL, NULL,
       {1e-4, 1e-5}, {0, 0},
     .cuda = "/* One thread per pair: the C code's la x lb warping table, row by row. */\n"
             "extern \"C\" __global__ void dtw(const $T *a, const $T *b, $T *table, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    $T *D = table + p * la * lb;\n"
             "    for (int i = 0; i < la; i++) {\n"
             "        for (int j = 0; j < lb; j++) {\n"
             "            $T m = 0;\n"
             "            if (i > 0 && j > 0)\n"
             "                m = fminf(D[(i - 1) * lb + j - 1], fminf(D[(i - 1) * lb + j], D[i * lb + j - 1]));\n"
             "            else if (i > 0)\n"
             "                m = D[(i - 1) * lb];\n"
             "            else if (j > 0)\n"
             "                m = D[j - 1];\n"
             "            D[i * lb + j] = fabsf(s[i] - t[j]) + m;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"dtw", "(batch+255)/256", "256", NULL, "a,b,table,batch,la,lb"}},
     .mapping = "one-pair-per-thread"),
    OP("dtw-single-table", "f64", SINGLE, "dtw",
       "#include <math.h>\n\n/* The dynamic-time-warping table of one long pair of series (squared\n"
       " * difference cost): D[i][j] (0-based, la x lb) adds (a_i - b_j)^2 to the\n"
       " * smallest existing predecessor among D[i-1][j], D[i][j-1], D[i-1][j-1]. */\n",
       "const $T *a, const $T *b, $T *D, int la, int lb",
       "    for (int i = 0; i < la; i++) {\n        for (int j = 0; j < lb; j++) {\n"
       "            $T m = 0;\n            if (i > 0 && j > 0)\n"
       "                m = fmin(D[(i - 1) * lb + j - 1], fmin(D[(i - 1) * lb + j], D[i * lb + j - 1]));\n"
       "            else if (i > 0)\n                m = D[(i - 1) * lb];\n"
       "            else if (j > 0)\n                m = D[j - 1];\n"
       "            $T d = a[i] - b[j];\n            D[i * lb + j] = d * d + m;\n        }\n    }\n",
       "6*la*lb", "$S*(la+lb)+$S*la*lb", "a=la;b=lb;D=la,lb", NULL, NULL, NULL, NO_TAIL,
     .cuda = "/* One block sweeps the anti-diagonals d = i + j of the la x lb table in\n"
             " * order, its threads sharing each diagonal, a barrier after it. */\n"
             "extern \"C\" __global__ void dtw(const $T *a, const $T *b, $T *D, int la, int lb)\n"
             "{\n"
             "    for (int d = 0; d <= la + lb - 2; d++) {\n"
             "        const int lo = d - (lb - 1) > 0 ? d - (lb - 1) : 0, hi = d < la - 1 ? d : la - 1;\n"
             "        for (int i = lo + threadIdx.x; i <= hi; i += blockDim.x) {\n"
             "            const int j = d - i;\n"
             "            $T m = 0;\n"
             "            if (i > 0 && j > 0)\n"
             "                m = fmin(D[(long long)(i - 1) * lb + j - 1], fmin(D[(long long)(i - 1) * lb + j], D[(long long)i * lb + j - 1]));\n"
             "            else if (i > 0)\n"
             "                m = D[(long long)(i - 1) * lb];\n"
             "            else if (j > 0)\n"
             "                m = D[j - 1];\n"
             "            const $T diff = a[i] - b[j];\n"
             "            D[(long long)i * lb + j] = __dmul_rn(diff, diff) + m;\n"
             "        }\n"
             "        __syncthreads();\n"
             "    }\n"
             "}\n",
     .launch = {{"dtw", "1", "1024", NULL, "a,b,D,la,lb"}},
     .mapping = "one-block-antidiagonal-wavefront"),
#define GRID_MAX(T2)                                                                                \
    "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n"                      \
    "            " T2 " best;\n            if (i == 0 && j == 0)\n                best = 0;\n"            \
    "            else if (i == 0)\n                best = P[j - 1];\n"                                   \
    "            else if (j == 0)\n                best = P[(i - 1) * m];\n"                             \
    "            else\n                best = P[(i - 1) * m + j] > P[i * m + j - 1] ? P[(i - 1) * m + j] : P[i * m + j - 1];\n" \
    "            P[i * m + j] = W[i * m + j] + best;\n        }\n    }\n"
    OP("grid-max-path", "f32 f64 i32", GRID, "grid_paths",
       "/* Heaviest monotone path on an n x m grid of weights moving right or down:\n"
       " * P[i][j] = W[i][j] + max(P[i-1][j], P[i][j-1]), from the top-left corner. */\n",
       "const $T *W, $T *P, int n, int m", GRID_MAX("$T"),
       "2*n*m", "2*$S*n*m", "W=n,m;P=n,m", "W=int:0:100", NULL, NULL, {1e-3, 1e-5}, {1e-9, 1e-12},
     .cuda = "/* P[i][j] = W[i][j] + the larger of the up and left paths. */\n"
             "__device__ void cell(const $T *W, $T *P, int m, int i, int j)\n"
             "{\n"
             "    const long long at = (long long)i * m + j;\n"
             "    $T best;\n"
             "    if (i == 0 && j == 0)\n"
             "        best = 0;\n"
             "    else if (i == 0)\n"
             "        best = P[at - 1];\n"
             "    else if (j == 0)\n"
             "        best = P[at - m];\n"
             "    else\n"
             "        best = P[at - m] > P[at - 1] ? P[at - m] : P[at - 1];\n"
             "    P[at] = W[at] + best;\n"
             "}\n"
             "\n"
             CU_GRID_SWEEP,
     .launch = {{"grid_paths", "1", "1024", NULL, "W,P,n,m"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("grid-max-path-diag", "f32", GRID, "grid_paths",
       "/* Heaviest monotone path on a weighted grid with right, down and diagonal\n"
       " * moves: P[i][j] = W[i][j] + max(P[i-1][j], P[i][j-1], P[i-1][j-1]). */\n",
       "const $T *W, $T *P, int n, int m",
       "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n            $T best = 0;\n"
       "            if (i > 0 && j > 0) {\n                best = P[(i - 1) * m + j - 1];\n"
       "                if (P[(i - 1) * m + j] > best)\n                    best = P[(i - 1) * m + j];\n"
       "                if (P[i * m + j - 1] > best)\n                    best = P[i * m + j - 1];\n"
       "            } else if (i > 0) {\n                best = P[(i - 1) * m];\n"
       "            } else if (j > 0) {\n                best = P[j - 1];\n            }\n"
       "            P[i * m + j] = W[i * m + j] + best;\n        }\n    }\n",
       "3*n*m", "2*$S*n*m", "W=n,m;P=n,m", "W=uni:0:1", NULL, NULL, {1e-3, 1e-5}, {0, 0},
     .cuda = "/* P[i][j] = W[i][j] + the largest of the up, left and diagonal paths. */\n"
             "__device__ void cell(const $T *W, $T *P, int m, int i, int j)\n"
             "{\n"
             "    const long long at = (long long)i * m + j;\n"
             "    $T best = 0;\n"
             "    if (i > 0 && j > 0) {\n"
             "        best = P[at - m - 1];\n"
             "        if (P[at - m] > best)\n"
             "            best = P[at - m];\n"
             "        if (P[at - 1] > best)\n"
             "            best = P[at - 1];\n"
             "    } else if (i > 0) {\n"
             "        best = P[at - m];\n"
             "    } else if (j > 0) {\n"
             "        best = P[at - 1];\n"
             "    }\n"
             "    P[at] = W[at] + best;\n"
             "}\n"
             "\n"
             CU_GRID_SWEEP,
     .launch = {{"grid_paths", "1", "1024", NULL, "W,P,n,m"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("grid-min-path", "f64", GRID, "grid_paths",
       "#include <math.h>\n\n/* Cheapest monotone path (right or down moves) on a grid of positive\n"
       " * costs: P[i][j] = W[i][j] + min(P[i-1][j], P[i][j-1]). */\n",
       "const $T *W, $T *P, int n, int m",
       "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n"
       "            $T up = i > 0 ? P[(i - 1) * m + j] : INFINITY;\n"
       "            $T left = j > 0 ? P[i * m + j - 1] : INFINITY;\n"
       "            $T best = i == 0 && j == 0 ? 0 : fmin(up, left);\n"
       "            P[i * m + j] = W[i * m + j] + best;\n        }\n    }\n",
       "2*n*m", "2*$S*n*m", "W=n,m;P=n,m", "W=uni:0.1:1", NULL, NULL, NO_TAIL,
     .cuda = "/* P[i][j] = W[i][j] + the cheaper of the up and left paths (the missing\n"
             " * one counts as infinite). */\n"
             "__device__ void cell(const $T *W, $T *P, int m, int i, int j)\n"
             "{\n"
             "    const long long at = (long long)i * m + j;\n"
             "    $T best;\n"
             "    if (i == 0 && j == 0)\n"
             "        best = 0;\n"
             "    else if (i == 0)\n"
             "        best = P[at - 1];\n"
             "    else if (j == 0)\n"
             "        best = P[at - m];\n"
             "    else\n"
             "        best = fmin(P[at - m], P[at - 1]);\n"
             "    P[at] = W[at] + best;\n"
             "}\n"
             "\n"
             CU_GRID_SWEEP,
     .launch = {{"grid_paths", "1", "1024", NULL, "W,P,n,m"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("grid-max-path-batched", "i32", GRIDB, "grid_best_paths",
       "#include <stdlib.h>\n\n/* Heaviest right/down path through each of a batch of n x m weight grids,\n"
       " * corner to corner, with one row of the table kept. */\n",
       "const $T *W, $T *best, int batch, int n, int m",
       "    $T *row = malloc((size_t)m * sizeof *row);\n    if (!row)\n        return;\n"
       "    for (int g = 0; g < batch; g++) {\n        const $T *w = W + (size_t)g * n * m;\n"
       "        for (int i = 0; i < n; i++) {\n            for (int j = 0; j < m; j++) {\n"
       "                $T prev;\n                if (i == 0)\n                    prev = j > 0 ? row[j - 1] : 0;\n"
       "                else if (j == 0)\n                    prev = row[0];\n"
       "                else\n                    prev = row[j] > row[j - 1] ? row[j] : row[j - 1];\n"
       "                row[j] = w[i * m + j] + prev;\n            }\n        }\n        best[g] = row[m - 1];\n    }\n"
       "    free(row);\n",
       "2*batch*n*m", "$S*batch*n*m+$S*batch", "W=batch,n,m;best=batch", "W=int:-50:100", NULL, NULL, NO_TAIL,
     .cuda = "/* One thread per grid: the C code's one-row recurrence in the grid's slice\n"
             " * of rows. */\n"
             "extern \"C\" __global__ void grid_best_paths(const $T *W, $T *best, $T *rows, int batch, int n, int m)\n"
             "{\n"
             "    const long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (g >= batch)\n"
             "        return;\n"
             "    const $T *w = W + g * n * m;\n"
             "    $T *row = rows + g * m;\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        for (int j = 0; j < m; j++) {\n"
             "            $T prev;\n"
             "            if (i == 0)\n"
             "                prev = j > 0 ? row[j - 1] : 0;\n"
             "            else if (j == 0)\n"
             "                prev = row[0];\n"
             "            else\n"
             "                prev = row[j] > row[j - 1] ? row[j] : row[j - 1];\n"
             "            row[j] = w[i * m + j] + prev;\n"
             "        }\n"
             "    }\n"
             "    best[g] = row[m - 1];\n"
             "}\n",
     .launch = {{"grid_best_paths", "(batch+255)/256", "256", NULL, "W,best,rows,batch,n,m"}},
     .scratch = "rows:$T:m*batch",
     .mapping = "one-grid-per-thread"),
#define LATTICE(T2, mod, diag)                                                                      \
    "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n"                      \
    "            if (free_cell[i * m + j] == 0) {\n                C[i * m + j] = 0;\n                continue;\n" \
    "            }\n            if (i == 0 && j == 0) {\n                C[0] = 1;\n                continue;\n            }\n" \
    "            int64_t c = 0;\n            if (i > 0)\n                c += C[(i - 1) * m + j];\n"      \
    "            if (j > 0)\n                c += C[i * m + j - 1];\n" diag                             \
    "            C[i * m + j] = (" T2 ")(c % " mod ");\n        }\n    }\n"
    OP("lattice-paths", "i32", GRID, "lattice_paths",
       "#include <stdint.h>\n\n/* Number of monotone (right/down) lattice paths from the top-left cell to\n"
       " * every cell of an n x m grid, modulo 1000000007; cells whose value is 0\n"
       " * are obstacles (no path enters them). */\n",
       "const uint8_t *free_cell, $T *C, int n, int m", LATTICE("int", "1000000007", ""),
       "2*n*m", "n*m+$S*n*m", "free_cell=n,m;C=n,m", "free_cell=int:0:8", NULL, NULL, NO_TAIL,
     .cuda = "#define MODULUS 1000000007\n"
             "#define DIAGONAL 0\n"
             "\n"
             CU_LATTICE,
     .launch = {{"lattice_paths", "1", "1024", NULL, "free_cell,C,n,m"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("lattice-paths-998244353", "i64", GRID, "lattice_paths",
       "#include <stdint.h>\n\n/* Number of monotone lattice paths to every cell of an n x m grid with\n"
       " * obstacles (value 0), modulo the prime 998244353. */\n",
       "const uint8_t *free_cell, $T *C, int n, int m", LATTICE("int64_t", "998244353", ""),
       "2*n*m", "n*m+$S*n*m", "free_cell=n,m;C=n,m", "free_cell=int:0:8", NULL, NULL, NO_TAIL,
     .cuda = "#define MODULUS 998244353\n"
             "#define DIAGONAL 0\n"
             "\n"
             CU_LATTICE,
     .launch = {{"lattice_paths", "1", "1024", NULL, "free_cell,C,n,m"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("lattice-paths-mod65521", "u16", GRID, "lattice_paths",
       "#include <stdint.h>\n\n/* Number of monotone lattice paths to every cell of an n x m grid with\n"
       " * obstacles (value 0), modulo the prime 65521 so counts fit 16 bits. */\n",
       "const uint8_t *free_cell, $T *C, int n, int m", LATTICE("uint16_t", "65521", ""),
       "2*n*m", "n*m+$S*n*m", "free_cell=n,m;C=n,m", "free_cell=int:0:8", NULL, NULL, NO_TAIL,
     .cuda = "#define MODULUS 65521\n"
             "#define DIAGONAL 0\n"
             "\n"
             CU_LATTICE,
     .launch = {{"lattice_paths", "1", "1024", NULL, "free_cell,C,n,m"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("delannoy-paths", "i32", GRID, "lattice_paths",
       "#include <stdint.h>\n\n/* Number of lattice paths with right, down and diagonal steps (Delannoy\n"
       " * paths) to every cell of an n x m grid with obstacles (value 0), modulo\n * 1000000007. */\n",
       "const uint8_t *free_cell, $T *C, int n, int m",
       LATTICE("int", "1000000007", "            if (i > 0 && j > 0)\n                c += C[(i - 1) * m + j - 1];\n"),
       "3*n*m", "n*m+$S*n*m", "free_cell=n,m;C=n,m", "free_cell=int:0:8", NULL, NULL, NO_TAIL,
     .cuda = "#define MODULUS 1000000007\n"
             "#define DIAGONAL 1\n"
             "\n"
             CU_LATTICE,
     .launch = {{"lattice_paths", "1", "1024", NULL, "free_cell,C,n,m"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("lattice-paths-batched", "i32", GRIDB, "lattice_path_counts",
       "#include <stdint.h>\n#include <stdlib.h>\n\n/* For each of a batch of n x m obstacle grids (value 0 = blocked), the\n"
       " * number of right/down paths from corner to corner modulo 1000000007. */\n",
       "const uint8_t *free_cell, $T *count, int batch, int n, int m",
       "    int64_t *row = malloc((size_t)m * sizeof *row);\n    if (!row)\n        return;\n"
       "    for (int g = 0; g < batch; g++) {\n        const uint8_t *f = free_cell + (size_t)g * n * m;\n"
       "        for (int i = 0; i < n; i++) {\n            for (int j = 0; j < m; j++) {\n"
       "                if (!f[i * m + j])\n                    row[j] = 0;\n"
       "                else if (i == 0 && j == 0)\n                    row[j] = 1;\n"
       "                else\n                    row[j] = ((i > 0 ? row[j] : 0) + (j > 0 ? row[j - 1] : 0)) % 1000000007;\n"
       "            }\n        }\n        count[g] = (int)row[m - 1];\n    }\n    free(row);\n",
       "2*batch*n*m", "batch*n*m+$S*batch", "free_cell=batch,n,m;count=batch", "free_cell=int:0:12", NULL, NULL,
       NO_TAIL,
     .cuda = "/* One thread per grid: the C code's one-row path count in the grid's slice\n"
             " * of rows. */\n"
             "extern \"C\" __global__ void lattice_path_counts(const unsigned char *free_cell, $T *count, long long *rows, int batch,\n"
             "                                               int n, int m)\n"
             "{\n"
             "    const long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (g >= batch)\n"
             "        return;\n"
             "    const unsigned char *f = free_cell + g * n * m;\n"
             "    long long *row = rows + g * m;\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        for (int j = 0; j < m; j++) {\n"
             "            if (!f[i * m + j])\n"
             "                row[j] = 0;\n"
             "            else if (i == 0 && j == 0)\n"
             "                row[j] = 1;\n"
             "            else\n"
             "                row[j] = ((i > 0 ? row[j] : 0) + (j > 0 ? row[j - 1] : 0)) % 1000000007;\n"
             "        }\n"
             "    }\n"
             "    count[g] = (int)row[m - 1];\n"
             "}\n",
     .launch = {{"lattice_path_counts", "(batch+255)/256", "256", NULL, "free_cell,count,rows,batch,n,m"}},
     .scratch = "rows:i64:m*batch",
     .mapping = "one-grid-per-thread"),
    OP("common-substring-table", "u8", PAIRST, "common_substring",
       "#include <stddef.h>\n\n/* Longest-common-suffix tables of a batch of pairs: L[i][j] is the length\n"
       " * of the longest common suffix of a[0..i) and b[0..j) (0 on a mismatch). */\n",
       "const $T *a, const $T *b, int *table, int batch, int la, int lb",
       TABLE_HEAD "        for (int j = 0; j <= lb; j++)\n            D[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            D[i * w] = 0;\n            for (int j = 1; j <= lb; j++)\n"
       "                D[i * w + j] = s[i - 1] == t[j - 1] ? D[(i - 1) * w + j - 1] + 1 : 0;\n        }\n    }\n",
       "2*batch*la*lb", "$S*batch*(la+lb)+4*batch*(la+1)*(lb+1)", SEQ ";table=batch,la+1,lb+1", SEQ_FILL,
       NULL, NULL, NO_TAIL,
     .cuda = "/* One thread per pair: the C code's common-suffix table, row by row. */\n"
             "extern \"C\" __global__ void common_substring(const $T *a, const $T *b, int *table, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const int w = lb + 1;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *D = table + p * (la + 1) * w;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        D[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        D[i * w] = 0;\n"
             "        for (int j = 1; j <= lb; j++)\n"
             "            D[i * w + j] = s[i - 1] == t[j - 1] ? D[(i - 1) * w + j - 1] + 1 : 0;\n"
             "    }\n"
             "}\n",
     .launch = {{"common_substring", "(batch+255)/256", "256", NULL, "a,b,table,batch,la,lb"}},
     .mapping = "one-pair-per-thread"),
    OP("common-substring", "u8", PAIRS, "common_substring",
       "#include <stdlib.h>\n\n/* Length of the longest common substring of each pair, from the\n"
       " * common-suffix recurrence kept two rows at a time. */\n",
       "const $T *a, const $T *b, int *len, int batch, int la, int lb",
       ROWS_ALLOC PAIR_HEAD "        int best = 0;\n        for (int j = 0; j <= lb; j++)\n            prev[j] = 0;\n"
       "        for (int i = 1; i <= la; i++) {\n            cur[0] = 0;\n            for (int j = 1; j <= lb; j++) {\n"
       "                cur[j] = s[i - 1] == t[j - 1] ? prev[j - 1] + 1 : 0;\n"
       "                if (cur[j] > best)\n                    best = cur[j];\n            }\n"
       SWAP_ROWS "        }\n        len[p] = best;\n    }\n    free(rows);\n",
       "3*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";len=batch", SEQ_FILL, NULL, NULL, NO_TAIL,
     .cuda = "/* One thread per pair: the common-suffix recurrence in two rows of the\n"
             " * pair's slice of rows, keeping the best. */\n"
             "extern \"C\" __global__ void common_substring(const $T *a, const $T *b, int *len, int *rows, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *prev = rows + p * 2 * (lb + 1), *cur = prev + lb + 1;\n"
             "    int best = 0;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        prev[j] = 0;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        cur[0] = 0;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            cur[j] = s[i - 1] == t[j - 1] ? prev[j - 1] + 1 : 0;\n"
             "            if (cur[j] > best)\n"
             "                best = cur[j];\n"
             "        }\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    len[p] = best;\n"
             "}\n",
     .launch = {{"common_substring", "(batch+255)/256", "256", NULL, "a,b,len,rows,batch,la,lb"}},
     .scratch = "rows:i32:2*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("osa-distance", "u8", PAIRS, "osa_distance",
       "#include <stdlib.h>\n\n" MIN3 "/* Optimal-string-alignment (restricted Damerau-Levenshtein) distance of\n"
       " * each pair: edit distance where swapping two adjacent symbols costs 1.\n"
       " * Three table rows are kept. */\n",
       "const $T *a, const $T *b, int *dist, int batch, int la, int lb",
       "    int *rows = malloc(3 * (size_t)(lb + 1) * sizeof *rows);\n    if (!rows)\n        return;\n"
       PAIR_HEAD "        int *r2 = rows, *r1 = rows + lb + 1, *r0 = rows + 2 * (lb + 1); /* rows i-2, i-1, i */\n"
       "        for (int j = 0; j <= lb; j++)\n            r1[j] = j;\n"
       "        for (int i = 1; i <= la; i++) {\n            r0[0] = i;\n            for (int j = 1; j <= lb; j++) {\n"
       "                int d = min3(r1[j - 1] + (s[i - 1] != t[j - 1]), r1[j] + 1, r0[j - 1] + 1);\n"
       "                if (i > 1 && j > 1 && s[i - 1] == t[j - 2] && s[i - 2] == t[j - 1] && r2[j - 2] + 1 < d)\n"
       "                    d = r2[j - 2] + 1;\n                r0[j] = d;\n            }\n"
       "            int *tmp = r2;\n            r2 = r1;\n            r1 = r0;\n            r0 = tmp;\n        }\n"
       "        dist[p] = r1[lb];\n    }\n    free(rows);\n",
       "8*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";dist=batch", SEQ_FILL, NULL, NULL, NO_TAIL,
     .cuda = CU_MIN3
             "/* One thread per pair: the C code's recurrence over the rows i - 2, i - 1\n"
             " * and i, kept in the pair's slice of rows. */\n"
             "extern \"C\" __global__ void osa_distance(const $T *a, const $T *b, int *dist, int *rows, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *r2 = rows + p * 3 * (lb + 1), *r1 = r2 + lb + 1, *r0 = r2 + 2 * (lb + 1);\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        r1[j] = j;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        r0[0] = i;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            int d = min3(r1[j - 1] + (s[i - 1] != t[j - 1]), r1[j] + 1, r0[j - 1] + 1);\n"
             "            if (i > 1 && j > 1 && s[i - 1] == t[j - 2] && s[i - 2] == t[j - 1] && r2[j - 2] + 1 < d)\n"
             "                d = r2[j - 2] + 1;\n"
             "            r0[j] = d;\n"
             "        }\n"
             "        int *tmp = r2;\n"
             "        r2 = r1;\n"
             "        r1 = r0;\n"
             "        r0 = tmp;\n"
             "    }\n"
             "    dist[p] = r1[lb];\n"
             "}\n",
     .launch = {{"osa_distance", "(batch+255)/256", "256", NULL, "a,b,dist,rows,batch,la,lb"}},
     .scratch = "rows:i32:3*(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
    OP("osa-table", "i32", PAIRST, "osa_distance",
       "#include <stddef.h>\n\n" MIN3 "/* Optimal-string-alignment distance tables of a batch of pairs: the\n"
       " * Levenshtein recurrence plus D[i-2][j-2] + 1 for an adjacent swap. */\n",
       "const $T *a, const $T *b, int *table, int batch, int la, int lb",
       TABLE_HEAD "        for (int j = 0; j <= lb; j++)\n            D[j] = j;\n"
       "        for (int i = 1; i <= la; i++) {\n            D[i * w] = i;\n            for (int j = 1; j <= lb; j++) {\n"
       "                int d = min3(D[(i - 1) * w + j - 1] + (s[i - 1] != t[j - 1]), D[(i - 1) * w + j] + 1,\n"
       "                             D[i * w + j - 1] + 1);\n"
       "                if (i > 1 && j > 1 && s[i - 1] == t[j - 2] && s[i - 2] == t[j - 1] &&\n"
       "                    D[(i - 2) * w + j - 2] + 1 < d)\n                    d = D[(i - 2) * w + j - 2] + 1;\n"
       "                D[i * w + j] = d;\n            }\n        }\n    }\n",
       "8*batch*la*lb", "$S*batch*(la+lb)+4*batch*(la+1)*(lb+1)", SEQ ";table=batch,la+1,lb+1", SEQ_FILL,
       NULL, NULL, NO_TAIL,
     .cuda = CU_MIN3
             "/* One thread per pair: the C code's table, row by row. */\n"
             "extern \"C\" __global__ void osa_distance(const $T *a, const $T *b, int *table, int batch, int la, int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const int w = lb + 1;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    int *D = table + p * (la + 1) * w;\n"
             "    for (int j = 0; j <= lb; j++)\n"
             "        D[j] = j;\n"
             "    for (int i = 1; i <= la; i++) {\n"
             "        D[i * w] = i;\n"
             "        for (int j = 1; j <= lb; j++) {\n"
             "            int d = min3(D[(i - 1) * w + j - 1] + (s[i - 1] != t[j - 1]), D[(i - 1) * w + j] + 1,\n"
             "                         D[i * w + j - 1] + 1);\n"
             "            if (i > 1 && j > 1 && s[i - 1] == t[j - 2] && s[i - 2] == t[j - 1] && D[(i - 2) * w + j - 2] + 1 < d)\n"
             "                d = D[(i - 2) * w + j - 2] + 1;\n"
             "            D[i * w + j] = d;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"osa_distance", "(batch+255)/256", "256", NULL, "a,b,table,batch,la,lb"}},
     .mapping = "one-pair-per-thread"),
    OP("max-square-table", "i32", GRID, "max_square",
       "#include <stdint.h>\n\n/* Largest all-ones square ending at each cell of a 0/1 grid (nonzero\n"
       " * bytes are ones): S[i][j] = 1 + min(S[i-1][j], S[i][j-1], S[i-1][j-1])\n"
       " * on a one, 0 on a zero. */\n",
       "const uint8_t *grid, $T *S, int n, int m",
       "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n"
       "            if (!grid[i * m + j]) {\n                S[i * m + j] = 0;\n                continue;\n            }\n"
       "            if (i == 0 || j == 0) {\n                S[i * m + j] = 1;\n                continue;\n            }\n"
       "            int s = S[(i - 1) * m + j];\n            if (S[i * m + j - 1] < s)\n                s = S[i * m + j - 1];\n"
       "            if (S[(i - 1) * m + j - 1] < s)\n                s = S[(i - 1) * m + j - 1];\n"
       "            S[i * m + j] = s + 1;\n        }\n    }\n",
       "3*n*m", "n*m+$S*n*m", "grid=n,m;S=n,m", "grid=int:0:10", NULL, NULL, NO_TAIL,
     .cuda = "/* One block sweeps the anti-diagonals d = i + j of the grid in order, its\n"
             " * threads sharing each diagonal, a barrier after it. */\n"
             "extern \"C\" __global__ void max_square(const unsigned char *grid, $T *S, int n, int m)\n"
             "{\n"
             "    for (int d = 0; d <= n + m - 2; d++) {\n"
             "        const int lo = d - (m - 1) > 0 ? d - (m - 1) : 0, hi = d < n - 1 ? d : n - 1;\n"
             "        for (int i = lo + threadIdx.x; i <= hi; i += blockDim.x) {\n"
             "            const int j = d - i;\n"
             "            const long long at = (long long)i * m + j;\n"
             "            if (!grid[at]) {\n"
             "                S[at] = 0;\n"
             "            } else if (i == 0 || j == 0) {\n"
             "                S[at] = 1;\n"
             "            } else {\n"
             "                int s = S[at - m];\n"
             "                if (S[at - 1] < s)\n"
             "                    s = S[at - 1];\n"
             "                if (S[at - m - 1] < s)\n"
             "                    s = S[at - m - 1];\n"
             "                S[at] = s + 1;\n"
             "            }\n"
             "        }\n"
             "        __syncthreads();\n"
             "    }\n"
             "}\n",
     .launch = {{"max_square", "1", "1024", NULL, "grid,S,n,m"}},
     .mapping = "one-block-antidiagonal-wavefront"),
    OP("max-square", "i32", GRIDB, "max_square",
       "#include <stdint.h>\n#include <stdlib.h>\n\n/* Side of the largest all-ones square in each of a batch of 0/1 grids\n"
       " * (nonzero bytes are ones), with two rows of the square table. */\n",
       "const uint8_t *grid, $T *side, int batch, int n, int m",
       "    int *rows = malloc(2 * (size_t)m * sizeof *rows);\n    if (!rows)\n        return;\n"
       "    int *prev = rows, *cur = rows + m;\n    for (int g = 0; g < batch; g++) {\n"
       "        const uint8_t *f = grid + (size_t)g * n * m;\n        int best = 0;\n"
       "        for (int i = 0; i < n; i++) {\n            for (int j = 0; j < m; j++) {\n"
       "                int s = 0;\n                if (f[i * m + j]) {\n                    s = 1;\n"
       "                    if (i > 0 && j > 0) {\n                        s = prev[j];\n"
       "                        if (cur[j - 1] < s)\n                            s = cur[j - 1];\n"
       "                        if (prev[j - 1] < s)\n                            s = prev[j - 1];\n"
       "                        s++;\n                    }\n                }\n                cur[j] = s;\n"
       "                if (s > best)\n                    best = s;\n            }\n"
       "            int *tmp = prev;\n            prev = cur;\n            cur = tmp;\n        }\n"
       "        side[g] = best;\n    }\n    free(rows);\n",
       "3*batch*n*m", "batch*n*m+$S*batch", "grid=batch,n,m;side=batch", "grid=int:0:6", NULL, NULL, NO_TAIL,
     .cuda = "/* One thread per grid: the C code's two-row recurrence in the grid's slice\n"
             " * of rows, keeping the largest side. */\n"
             "extern \"C\" __global__ void max_square(const unsigned char *grid, $T *side, int *rows, int batch, int n, int m)\n"
             "{\n"
             "    const long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (g >= batch)\n"
             "        return;\n"
             "    const unsigned char *f = grid + g * n * m;\n"
             "    int *prev = rows + g * 2 * m, *cur = prev + m;\n"
             "    int best = 0;\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        for (int j = 0; j < m; j++) {\n"
             "            int s = 0;\n"
             "            if (f[i * m + j]) {\n"
             "                s = 1;\n"
             "                if (i > 0 && j > 0) {\n"
             "                    s = prev[j];\n"
             "                    if (cur[j - 1] < s)\n"
             "                        s = cur[j - 1];\n"
             "                    if (prev[j - 1] < s)\n"
             "                        s = prev[j - 1];\n"
             "                    s++;\n"
             "                }\n"
             "            }\n"
             "            cur[j] = s;\n"
             "            if (s > best)\n"
             "                best = s;\n"
             "        }\n"
             "        int *tmp = prev;\n"
             "        prev = cur;\n"
             "        cur = tmp;\n"
             "    }\n"
             "    side[g] = best;\n"
             "}\n",
     .launch = {{"max_square", "(batch+255)/256", "256", NULL, "grid,side,rows,batch,n,m"}},
     .scratch = "rows:i32:2*m*batch",
     .mapping = "one-grid-per-thread"),
    OP("subsequence-count", "u8", SUBSEQ, "count_subsequences",
       "#include <stdint.h>\n#include <stdlib.h>\n\n"
       "/* How many times b[p] occurs as a (not necessarily contiguous)\n"
       " * subsequence of a[p], modulo 1000000007: N[i][j] = N[i-1][j] +\n"
       " * (a_i == b_j ? N[i-1][j-1] : 0), N[i][0] = 1. */\n",
       "const $T *a, const $T *b, int *count, int batch, int la, int lb",
       "    int64_t *n = malloc((size_t)(lb + 1) * sizeof *n);\n    if (!n)\n        return;\n"
       PAIR_HEAD "        n[0] = 1;\n        for (int j = 1; j <= lb; j++)\n            n[j] = 0;\n"
       "        for (int i = 1; i <= la; i++)\n            for (int j = lb; j >= 1; j--) /* right to left: n[j-1] is still row i-1 */\n"
       "                if (s[i - 1] == t[j - 1])\n                    n[j] = (n[j] + n[j - 1]) % 1000000007;\n"
       "        count[p] = (int)n[lb];\n    }\n    free(n);\n",
       "2*batch*la*lb", "$S*batch*(la+lb)+4*batch", SEQ ";count=batch", "a=int:0:3;b=int:0:3", NULL, NULL, NO_TAIL,
     .cuda = "/* One thread per pair: the C code's one-row count, right to left, in the\n"
             " * pair's slice of counts. */\n"
             "extern \"C\" __global__ void count_subsequences(const $T *a, const $T *b, int *count, long long *counts, int batch, int la,\n"
             "                                              int lb)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p >= batch)\n"
             "        return;\n"
             "    const $T *s = a + p * la, *t = b + p * lb;\n"
             "    long long *n = counts + p * (lb + 1);\n"
             "    n[0] = 1;\n"
             "    for (int j = 1; j <= lb; j++)\n"
             "        n[j] = 0;\n"
             "    for (int i = 1; i <= la; i++)\n"
             "        for (int j = lb; j >= 1; j--) /* right to left: n[j-1] is still row i-1 */\n"
             "            if (s[i - 1] == t[j - 1])\n"
             "                n[j] = (n[j] + n[j - 1]) % 1000000007;\n"
             "    count[p] = (int)n[lb];\n"
             "}\n",
     .launch = {{"count_subsequences", "(batch+255)/256", "256", NULL, "a,b,count,counts,batch,la,lb"}},
     .scratch = "counts:i64:(lb+1)*batch",
     .mapping = "one-pair-per-thread"),
};
#define N_OPS ((int)(sizeof OPS / sizeof *OPS))

/* Applies "name=int:lo:hi;name=uni:lo:hi;name=part:total;name=sorted". */
static int generate(GenCtx *g)
{
    static const OpFamily family = {"anti-diagonal dynamic program", configs, NULL};
    return ops_emit_all(g, &family, OPS, N_OPS);
}

const Family family_dp_antidiag = {"dp_antidiag", "dynamic-programming", 54, generate};
