#include "harness/racecheck.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/nvrtc.h"

static int executable(const char *path)
{
    return access(path, X_OK) == 0;
}

int racecheck_find_sanitizer(char *path, size_t len, Error *e)
{
    const char *env = getenv(RACECHECK_SANITIZER_ENV);
    if (env && *env) {
        if (!executable(env))
            return ERR(e, "%s=%s: not an executable file", RACECHECK_SANITIZER_ENV, env);
        snprintf(path, len, "%s", env);
        return 0;
    }
    char cand[1024];
    snprintf(cand, sizeof cand, "%s/bin/compute-sanitizer", nvrtc_cuda_home());
    if (executable(cand)) {
        snprintf(path, len, "%s", cand);
        return 0;
    }
    const char *p = getenv("PATH");
    while (p && *p) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        snprintf(cand, sizeof cand, "%.*s/compute-sanitizer", (int)n, p);
        if (n > 0 && executable(cand)) {
            snprintf(path, len, "%s", cand);
            return 0;
        }
        p = colon ? colon + 1 : NULL;
    }
    return ERR(e, "compute-sanitizer not found (looked at $%s, %s/bin and PATH); --racecheck needs it",
               RACECHECK_SANITIZER_ENV, nvrtc_cuda_home());
}

/* "========= text" -> "text" */
static const char *past_banner(const char *line)
{
    while (*line == '=')
        line++;
    while (*line == ' ')
        line++;
    return line;
}

int racecheck_read_log(const char *log_path, RaceReport *r, Error *e)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(log_path, "r");
    if (!f)
        return ERR(e, "%s: %s", log_path, strerror(errno));
    char line[4096];
    int summary = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *text = past_banner(line);
        const char *s = strstr(text, "RACECHECK SUMMARY:");
        if (s) {
            /* "RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)" */
            const char *paren = strchr(s, '(');
            if (paren && sscanf(paren, "(%d error%*[s], %d warning", &r->errors, &r->warnings) == 2)
                summary = 1;
            else if (paren && sscanf(paren, "(%d error, %d warning", &r->errors, &r->warnings) == 2)
                summary = 1;
        } else if (!r->first[0] && (strstr(text, "Error: Race") || strstr(text, "Race reported"))) {
            snprintf(r->first, sizeof r->first, "%s", text);
        }
    }
    fclose(f);
    if (!summary)
        return ERR(e, "%s: no RACECHECK SUMMARY line (the sanitizer did not finish)", log_path);
    return 0;
}

WorkerWrapper racecheck_wrapper(const char *sanitizer, const char *log_path, RacecheckArgs *storage)
{
    const char *args[] = {"--tool", "racecheck", "--log-file", log_path, "--print-limit", "4", NULL};
    memset(storage, 0, sizeof *storage);
    for (size_t i = 0; i < sizeof args / sizeof *args; i++)
        storage->args[i] = args[i];
    WorkerWrapper w = {sanitizer, storage->args};
    return w;
}
