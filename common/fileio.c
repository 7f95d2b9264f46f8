
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"

int file_read_all(const char *path, size_t max_bytes, char **out, size_t *len_out, Error *e)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ERR(e, "cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return ERR(e, "cannot read '%s': not a regular file", path);
    }
    if ((size_t)st.st_size > max_bytes) {
        close(fd);
        return ERR(e, "'%s' is too large (%lld bytes, limit %zu)", path, (long long)st.st_size, max_bytes);
    }
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (len + 1 >= cap) {
            if (cap > max_bytes + 1) {
                free(buf);
                close(fd);
                return ERR(e, "'%s' is too large (limit %zu bytes)", path, max_bytes);
            }
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        ssize_t n = read(fd, buf + len, cap - len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int err = errno;
            free(buf);
            close(fd);
            return ERR(e, "cannot read '%s': %s", path, strerror(err));
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = '\0';
    *out = buf;
    if (len_out)
        *len_out = len;
    return 0;
}

static int same_content(const char *path, const void *data, size_t len)
{
    char *old = NULL;
    size_t old_len = 0;
    if (file_read_all(path, len + 1, &old, &old_len, NULL) != 0)
        return 0;
    int same = old_len == len && memcmp(old, data, len) == 0;
    free(old);
    return same;
}

int file_write_if_changed(const char *path, const void *data, size_t len, int *changed, Error *e)
{
    if (changed)
        *changed = 0;
    if (same_content(path, data, len))
        return 0;
    char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        ERR(e, "cannot create '%s': %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    const char *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            ERR(e, "cannot write '%s': %s", tmp, strerror(errno));
            close(fd);
            unlink(tmp);
            free(tmp);
            return -1;
        }
        p += n;
        left -= (size_t)n;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        ERR(e, "cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    if (changed)
        *changed = 1;
    return 0;
}

int file_mkdirs(const char *path, Error *e)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            ERR(e, "cannot create directory '%s': %s", p, strerror(errno));
            free(p);
            return -1;
        }
        *s = '/';
    }
    int rc = 0;
    if (mkdir(p, 0755) != 0 && errno != EEXIST)
        rc = ERR(e, "cannot create directory '%s': %s", p, strerror(errno));
    free(p);
    return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int file_remove_tree(const char *path, Error *e)
{
    if (!path || !*path || strcmp(path, "/") == 0)
        return ERR(e, "refusing to remove '%s'", path ? path : "");
    if (!file_exists(path))
        return 0;
    if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        return ERR(e, "cannot remove '%s': %s", path, strerror(errno));
    return 0;
}

int file_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

int file_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
