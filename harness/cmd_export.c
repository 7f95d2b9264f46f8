/* harness export — catalog programs in another format (KernelBench's: see
 * kb_export.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli.h"
#include "harness/kb_export.h"

static const char USAGE[] =
    "usage: harness export --format kernelbench --split S [--config NAME] OUT_DIR\n"
    "  Writes the catalog's torch programs of split S as KernelBench-format files,\n"
    "  OUT_DIR/levelN/<n>_<name>.py (levelN from the category torch-levelN, else other/),\n"
    "  each the program's source with its module-level constants set to config NAME\n"
    "  (default large).  C programs have no form in this format and are skipped (counted).\n"
    "  Unchanged files are left alone and numbered files of an earlier export that this\n"
    "  one does not write are removed: a second export changes nothing.\n"
    "  --format F      kernelbench (the only one)\n"
    "  --split S       train, val, test or test-ood\n"
    "  --config NAME   the config whose params the constants get (default large)\n";

int cmd_export(CliContext *cx, int argc, char **argv)
{
    const char *format = NULL, *split = NULL, *config = "large", *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(USAGE, stdout);
            return 0;
        } else if (strcmp(a, "--format") == 0 && more) {
            format = argv[++i];
        } else if (strcmp(a, "--split") == 0 && more) {
            split = argv[++i];
        } else if (strcmp(a, "--config") == 0 && more) {
            config = argv[++i];
        } else if (a[0] == '-') {
            return cli_usage_error("export", "unknown option '%s'", a);
        } else if (out) {
            return cli_usage_error("export", "one OUT_DIR only ('%s' and '%s')", out, a);
        } else {
            out = a;
        }
    }
    if (!format)
        return cli_usage_error("export", "--format is required (kernelbench)");
    if (strcmp(format, "kernelbench") != 0)
        return cli_usage_error("export", "unknown --format '%s' (known: kernelbench)", format);
    if (!split)
        return cli_usage_error("export", "--split is required");
    if (strcmp(split, "train") && strcmp(split, "val") && strcmp(split, "test") && strcmp(split, "test-ood"))
        return cli_usage_error("export", "--split must be train, val, test or test-ood");
    if (!out)
        return cli_usage_error("export", "no OUT_DIR given");
    Error e;
    Catalog *c = NULL;
    KbExportSummary s;
    int rc = 0;
    if (catalog_open(cx->catalog_path, 0, &c, &e) != 0 || kb_export_split(c, split, config, out, &s, &e) != 0) {
        rc = cli_fail(&e);
    } else {
        printf("harness export: split %s, config %s: %d files written, %d unchanged, %d stale removed; skipped %d C "
               "programs (no KernelBench form) and %d torch programs that could not be written\n",
               split, config, s.written, s.unchanged, s.removed, s.skipped_c, s.skipped_bad);
        if (s.skipped_bad)
            rc = 1;
    }
    catalog_close(c);
    return rc;
}
