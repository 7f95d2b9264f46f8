#include "wp_profile.h"

#include <string.h>

static void put_f64(WpBuf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    wp_put_u64(b, u);
}

static double get_f64(WpReader *r)
{
    uint64_t u = wp_get_u64(r);
    double v;
    memcpy(&v, &u, 8);
    return v;
}

void wp_encode_profile(WpBuf *b, const WpProfileRequest *q)
{
    wp_put_u32(b, q->flush_mib);
    wp_put_u32(b, q->deadline_ms);
    wp_put_u32(b, q->max_passes);
    wp_put_u32(b, q->n_restore);
    for (uint32_t i = 0; i < q->n_restore && i < WP_MAX_BUFFERS; i++)
        wp_put_u32(b, q->restore[i]);
    wp_encode_run(b, &q->plan);
}

int wp_decode_profile(const void *payload, size_t len, uint32_t n_buffers, WpProfileRequest *q, Error *e)
{
    memset(q, 0, sizeof *q);
    WpReader r;
    wp_reader_init(&r, payload, len);
    q->flush_mib = wp_get_u32(&r);
    q->deadline_ms = wp_get_u32(&r);
    q->max_passes = wp_get_u32(&r);
    q->n_restore = wp_get_u32(&r);
    if (r.bad || q->n_restore > WP_MAX_BUFFERS || q->flush_mib > 4096 || q->max_passes > 1000)
        return ERR(e, "PROFILE: malformed header (%u buffers to restore, %u MiB flush, %u passes)", q->n_restore,
                   q->flush_mib, q->max_passes);
    for (uint32_t i = 0; i < q->n_restore; i++) {
        q->restore[i] = wp_get_u32(&r);
        if (r.bad || q->restore[i] >= n_buffers)
            return ERR(e, "PROFILE: restore buffer %u of %u", q->restore[i], n_buffers);
    }
    size_t off = len - wp_remaining(&r);
    if (wp_decode_run((const uint8_t *)payload + off, wp_remaining(&r), n_buffers, &q->plan, e) != 0)
        return error_prefix(e, "PROFILE");
    return 0;
}

void wp_profile_request_release(WpProfileRequest *q)
{
    wp_run_release(&q->plan);
}

void wp_encode_profile_result(WpBuf *b, const ProfileResult *r)
{
    wp_put_u32(b, (uint32_t)r->status);
    wp_put_str(b, r->note);
    wp_put_u32(b, (uint32_t)r->passes);
    put_f64(b, r->seconds);
    wp_put_u32(b, (uint32_t)r->n_metrics);
    for (int i = 0; i < r->n_metrics; i++) {
        wp_put_str(b, r->names[i]);
        put_f64(b, r->values[i]);
    }
    wp_put_u32(b, (uint32_t)r->n_launches);
    for (int i = 0; i < r->n_launches; i++)
        wp_put_u32(b, (uint32_t)r->api_blocks_per_sm[i]);
    wp_put_str(b, r->occupancy_note);
}

int wp_decode_profile_result(WpReader *in, ProfileResult *r, Error *e)
{
    profile_result_init(r);
    uint32_t st = wp_get_u32(in);
    if (st > PROFILE_FAILED)
        return ERR(e, "PROFILE answer: status %u", st);
    r->status = (ProfileStatus)st;
    if (wp_get_str(in, r->note, sizeof r->note) != 0)
        return ERR(e, "PROFILE answer: malformed note");
    r->passes = (int)wp_get_u32(in);
    r->seconds = get_f64(in);
    uint32_t n = wp_get_u32(in);
    if (n > PROFILE_MAX_METRICS)
        return ERR(e, "PROFILE answer: %u metrics (at most %d)", n, PROFILE_MAX_METRICS);
    r->n_metrics = (int)n;
    for (uint32_t i = 0; i < n; i++) {
        if (wp_get_str(in, r->names[i], sizeof r->names[i]) != 0)
            return ERR(e, "PROFILE answer: malformed metric name %u", i);
        r->values[i] = get_f64(in);
    }
    uint32_t nl = wp_get_u32(in);
    if (nl > PROFILE_MAX_LAUNCHES)
        return ERR(e, "PROFILE answer: %u launches (at most %d)", nl, PROFILE_MAX_LAUNCHES);
    r->n_launches = (int)nl;
    for (uint32_t i = 0; i < nl; i++)
        r->api_blocks_per_sm[i] = (int)wp_get_u32(in);
    if (wp_get_str(in, r->occupancy_note, sizeof r->occupancy_note) != 0 || in->bad)
        return ERR(e, "PROFILE answer: truncated");
    return 0;
}
