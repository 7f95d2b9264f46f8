/* cudaperf-gen — writes the generated C programs as folders
 * (<out>/c/<family>/<variant>/{program.c,meta.json}).
 * `harness ingest` then validates and catalogues them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "torch_families.h"

static void usage(FILE *f)
{
    fputs("usage: cudaperf-gen [--out DIR] [--seed N] [--family NAME]... [--list]\n"
          "  Writes every generated program as DIR/c/<family>/<variant>/{program.c,meta.json}\n"
          "  and DIR/torch/<family>/<variant>/{program.py,meta.json}.\n"
          "  --out DIR      output folder (default datasets/programs)\n"
          "  --seed N       build seed (default 20261202; the catalog records it)\n"
          "  --family NAME  only this family (repeatable)\n"
          "  --list         list the families and their program counts, then exit\n"
          "  --verbose      report each refused variant and why (an invalid knob setting)\n",
          f);
}

int main(int argc, char **argv)
{
    const char *out = "datasets/programs";
    uint64_t seed = 20261202;
    const char *only[256];
    int n_only = 0, list = 0, verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--family") == 0 && i + 1 < argc && n_only < 256) {
            only[n_only++] = argv[++i];
        } else if (strcmp(argv[i], "--verbose") == 0) {
            verbose = 1;
        } else if (strcmp(argv[i], "--list") == 0) {
            list = 1;
        } else {
            fprintf(stderr, "cudaperf-gen: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    /* C families, then the torch ones (torch_families.h). */
    int n_torch = 0;
    const Family *const *torch = torch_families(&n_torch);
    int n_fam = gen_family_count + n_torch;
    const Family **fams = malloc(sizeof *fams * (size_t)n_fam);
    for (int i = 0; i < n_fam; i++)
        fams[i] = i < gen_family_count ? gen_families[i] : torch[i - gen_family_count];
    int total = 0;
    for (int i = 0; i < n_fam; i++)
        total += fams[i]->count;
    if (list) {
        for (int i = 0; i < n_fam; i++)
            printf("%-24s %-14s %5d\n", fams[i]->name, fams[i]->category, fams[i]->count);
        printf("%d families, %d programs\n", n_fam, total);
        free(fams);
        return 0;
    }
    for (int k = 0; k < n_only; k++) {
        int found = 0;
        for (int i = 0; i < n_fam; i++)
            found |= strcmp(fams[i]->name, only[k]) == 0;
        if (!found) {
            fprintf(stderr, "cudaperf-gen: unknown family '%s' (see --list)\n", only[k]);
            return 2;
        }
    }
    GenStats stats = {0};
    stats.refusals = verbose ? stdout : NULL;
    int failures = 0;
    for (int i = 0; i < n_fam; i++) {
        const Family *f = fams[i];
        int wanted = n_only == 0;
        for (int k = 0; k < n_only; k++)
            wanted |= strcmp(f->name, only[k]) == 0;
        if (!wanted)
            continue;
        char err[2048];
        const char *lang = i < gen_family_count ? "c" : "torch";
        if (gen_run_family_lang(f, lang, out, seed, &stats, err, sizeof err) != 0) {
            fprintf(stderr, "cudaperf-gen: %s\n", err);
            failures++;
        }
    }
    printf("cudaperf-gen: %d programs from %d families into %s (%d files changed); %d variants derived "
           "(%d refused: an invalid knob setting or a plan that does not fit, --verbose says why; %d left out: what they change could not show on any config)\n",
           stats.programs, n_only ? n_only : n_fam, out, stats.written, stats.variants, stats.refused,
           stats.not_planted);
    free(fams);
    return failures ? 1 : 0;
}
