/* The GPU worker protocol: RUN requests round-trip, malformed ones are
 * refused, frames survive a pipe (also in pieces) and a silent peer times
 * out. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "harness/worker_protocol.h"
#include "tests/test.h"

static void sample_run(WpRun *run, WpArg args[3])
{
    memset(run, 0, sizeof *run);
    run->repeats = 5;
    run->deadline_ms = 1500;
    run->n_launches = 1;
    run->launches = xcalloc(1, sizeof *run->launches);
    WpLaunch *L = &run->launches[0];
    strcpy(L->kernel, "jacobi5");
    L->grid[0] = 128, L->grid[1] = 512, L->grid[2] = 1;
    L->block[0] = 32, L->block[1] = 8, L->block[2] = 1;
    L->smem = 4096;
    L->n_args = 3;
    L->args = args;
    args[0] = (WpArg){WP_ARG_BUFFER, 2, 0, {0}};
    args[1] = (WpArg){WP_ARG_VALUE, 0, 4, {0}};
    int32_t n = 4096;
    memcpy(args[1].value, &n, 4);
    args[2] = (WpArg){WP_ARG_VALUE, 0, 8, {0}};
    double alpha = 0.25;
    memcpy(args[2].value, &alpha, 8);
}

TEST(worker_protocol_run_roundtrip)
{
    WpRun run, back;
    WpArg args[3];
    Error e;
    sample_run(&run, args);
    WpBuf b = {0};
    wp_encode_run(&b, &run);
    CHECK_MSG(wp_decode_run(b.data, b.len, 3, &back, &e) == 0, "%s", e.msg);
    CHECK(back.repeats == 5 && back.deadline_ms == 1500 && back.n_launches == 1);
    WpLaunch *L = &back.launches[0];
    CHECK(strcmp(L->kernel, "jacobi5") == 0 && L->grid[1] == 512 && L->block[0] == 32 && L->smem == 4096);
    CHECK(L->n_args == 3 && L->args[0].kind == WP_ARG_BUFFER && L->args[0].buffer == 2);
    CHECK(L->args[1].size == 4 && memcmp(L->args[1].value, args[1].value, 4) == 0);
    CHECK(L->args[2].size == 8 && memcmp(L->args[2].value, args[2].value, 8) == 0);
    wp_run_release(&back);

    /* buffer index out of range */
    CHECK(wp_decode_run(b.data, b.len, 2, &back, &e) != 0);
    CHECK_MSG(strstr(e.msg, "buffer 2 of 2"), "%s", e.msg);
    /* every truncation is refused, never read past */
    for (size_t cut = 0; cut < b.len; cut++)
        CHECK_MSG(wp_decode_run(b.data, cut, 3, &back, &e) != 0, "accepted a RUN cut at %zu of %zu", cut, b.len);
    /* trailing garbage */
    wp_put_u8(&b, 7);
    CHECK(wp_decode_run(b.data, b.len, 3, &back, &e) != 0 && strstr(e.msg, "trailing"));
    wp_buf_release(&b);

    /* bad fields */
    run.repeats = 0;
    wp_encode_run(&b, &run);
    CHECK(wp_decode_run(b.data, b.len, 3, &back, &e) != 0 && strstr(e.msg, "repeats"));
    wp_buf_release(&b);
    run.repeats = 1;
    run.launches[0].grid[2] = 0;
    wp_encode_run(&b, &run);
    CHECK(wp_decode_run(b.data, b.len, 3, &back, &e) != 0 && strstr(e.msg, "zero grid"));
    wp_buf_release(&b);
    run.launches[0].grid[2] = 1;
    args[1].size = 9;
    wp_encode_run(&b, &run);
    CHECK(wp_decode_run(b.data, b.len, 3, &back, &e) != 0);
    wp_buf_release(&b);
    args[1].size = 4;
    run.launches[0].kernel[0] = '\0';
    wp_encode_run(&b, &run);
    CHECK(wp_decode_run(b.data, b.len, 3, &back, &e) != 0 && strstr(e.msg, "kernel name"));
    wp_buf_release(&b);
    free(run.launches);
    return 0;
}

TEST(worker_protocol_frames)
{
    int fds[2];
    Error e;
    if (pipe(fds) != 0)
        return -1;
    /* a response: status, message, data */
    WpBuf resp = {0};
    wp_encode_response(&resp, WP_TIMEOUT, "too slow");
    wp_put_u32(&resp, 42);
    CHECK(wp_write_frame2(fds[1], WP_RUN | WP_RESPONSE, resp.data, 6, resp.data + 6, resp.len - 6, 0, &e) == 0);
    WpFrame f;
    CHECK_MSG(wp_read_frame(fds[0], &f, wp_now() + 5, NULL, &e) == 0, "%s", e.msg);
    CHECK(f.type == (WP_RUN | WP_RESPONSE) && f.len == resp.len);
    WpStatus st;
    char msg[64];
    WpReader d;
    CHECK(wp_decode_response(&f, &st, msg, sizeof msg, &d, &e) == 0);
    CHECK(st == WP_TIMEOUT && strcmp(msg, "too slow") == 0 && wp_get_u32(&d) == 42 && wp_remaining(&d) == 0);
    wp_frame_release(&f);
    wp_buf_release(&resp);

    /* nothing arrives: the deadline ends the wait */
    int timed_out = 0;
    double t0 = wp_now();
    CHECK(wp_read_frame(fds[0], &f, wp_now() + 0.2, &timed_out, &e) != 0 && timed_out);
    CHECK(wp_now() - t0 < 2.0);

    /* a stray writer is refused by the magic */
    uint8_t junk[16] = "not a frame!!!!";
    CHECK(write(fds[1], junk, 16) == 16);
    CHECK(wp_read_frame(fds[0], &f, wp_now() + 5, NULL, &e) != 0 && strstr(e.msg, "magic"));

    /* the other side dies: end of file is an error, not a hang */
    close(fds[1]);
    CHECK(wp_read_frame(fds[0], &f, wp_now() + 5, &timed_out, &e) != 0 && !timed_out && strstr(e.msg, "closed"));
    close(fds[0]);

    /* a reader never reads past its payload */
    WpReader r;
    uint8_t two[2] = {1, 2};
    wp_reader_init(&r, two, 2);
    CHECK(wp_get_u32(&r) == 0 && r.bad);
    char s[8];
    uint8_t str[6] = {200, 0, 0, 0, 'a', 'b'};
    wp_reader_init(&r, str, 6);
    CHECK(wp_get_str(&r, s, sizeof s) != 0);
    CHECK(strcmp(wp_status_name(WP_NO_DEVICE), "no GPU") == 0 && strcmp(wp_type_name(WP_RUN | WP_RESPONSE), "RUN") == 0);
    return 0;
}
