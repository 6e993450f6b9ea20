/* svg.c - see svg.h. */
#include "lib/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>


/* At s (lead byte s[0] >= 0x80): the length n of a valid UTF-8 sequence
 * (2 to 4 bytes), or -m: the first m bytes (m >= 1) are the longest start
 * of one that is cut or broken after them, to be replaced by one U+FFFD
 * (Unicode's "maximal subpart" practice, the WHATWG decoder's): a lone
 * continuation byte, a byte that never starts one (0xc0, 0xc1, 0xf5..0xff),
 * an overlong form, a surrogate, a code point past U+10FFFF, a sequence
 * cut short (by a NUL too) are each one replacement. RFC 3629's table. */
static int utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    int n;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0) lo = 0xa0;       /* overlong */
        else if (c == 0xed) hi = 0x9f;  /* surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0) lo = 0x90;       /* overlong */
        else if (c == 0xf4) hi = 0x8f;  /* past U+10FFFF */
    } else {
        return -1;
    }
    if (s[1] < lo || s[1] > hi) return -1;
    for (int k = 2; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xbf) return -k;
    return n;
}

void mnw_svg_escape(mnw_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char ch = *p;
        if (ch >= 0x80) {
            int n = utf8_len(p);
            if (n > 0) mnw_buf_put(b, p, (size_t)n);
            else mnw_buf_puts(b, "\xef\xbf\xbd"); /* U+FFFD REPLACEMENT CHARACTER */
            p += n > 0 ? n : -n;
            continue;
        }
        p++;
        if (ch == '&') mnw_buf_puts(b, "&amp;");
        else if (ch == '<') mnw_buf_puts(b, "&lt;");
        else if (ch == '>') mnw_buf_puts(b, "&gt;");
        else if (ch == '"') mnw_buf_puts(b, "&quot;");
        else if (ch == '\'') mnw_buf_puts(b, "&#39;");
        else if (ch < 0x20 && ch != '\t' && ch != '\n') continue;
        else if (ch == 0x7f) continue;
        else mnw_buf_putc(b, (char)ch);
    }
}

void mnw_svg_begin(mnw_svg *c, mnw_buf *b, int width, int height, const char *title, double x0, double x1, double y0,
                   double y1, int ylog)
{
    memset(c, 0, sizeof *c);
    c->b = b;
    c->width = width;
    c->height = height;
    c->left = 70;
    c->right = 20;
    c->top = 20;
    c->bottom = 50;
    c->x0 = x0;
    c->x1 = x1 > x0 ? x1 : x0 + 1;
    c->ylog = ylog && y0 > 0;
    c->y0 = y0;
    c->y1 = y1 > y0 ? y1 : y0 + 1;
    mnw_buf_printf(b,
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
         "font-family=\"sans-serif\" font-size=\"12\">\n<title>",
         width, height, width, height);
    mnw_svg_escape(b, title);
    mnw_buf_puts(b, "</title>\n");
}

void mnw_svg_end(mnw_svg *c) { mnw_buf_puts(c->b, "</svg>\n"); }

double mnw_svg_x(const mnw_svg *c, double x)
{
    double w = c->width - c->left - c->right;
    return c->left + (x - c->x0) / (c->x1 - c->x0) * w;
}

double mnw_svg_y(const mnw_svg *c, double y)
{
    double h = c->height - c->top - c->bottom;
    double f;
    if (c->ylog) {
        if (y < c->y0) y = c->y0;
        f = (log10(y) - log10(c->y0)) / (log10(c->y1) - log10(c->y0));
    } else {
        f = (y - c->y0) / (c->y1 - c->y0);
    }
    return c->top + (1 - f) * h;
}

/* A "nice" step (1, 2 or 5 times a power of ten) near span / n. */
static double nice_step(double span, int n)
{
    double raw = span / (n > 0 ? n : 1);
    double p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

void mnw_svg_text(mnw_svg *c, double px, double py, const char *anchor, const char *color, const char *text)
{
    mnw_buf_printf(c->b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">", px, py, anchor, color);
    mnw_svg_escape(c->b, text);
    mnw_buf_puts(c->b, "</text>\n");
}

void mnw_svg_axes(mnw_svg *c, int xticks, const char *xfmt, const char *xtitle, int yticks, const char *yfmt,
                  const char *ytitle)
{
    mnw_buf *b = c->b;
    double L = c->left, R = c->width - c->right, T = c->top, B = c->height - c->bottom;
    mnw_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafafa\" stroke=\"#999\"/>\n", L, T,
         R - L, B - T);
    char lab[64];
    double step = nice_step(c->x1 - c->x0, xticks);
    for (double x = ceil(c->x0 / step - 1e-9) * step; x <= c->x1 + step * 1e-9; x += step) {
        double px = mnw_svg_x(c, x);
        mnw_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", px, T, px, B);
        snprintf(lab, sizeof lab, xfmt, fabs(x) < 1e-9 * step ? 0.0 : x);
        mnw_svg_text(c, px, B + 16, "middle", "#333", lab);
    }
    if (c->ylog) {
        for (double y = pow(10, floor(log10(c->y0))); y <= c->y1 * 1.0001; y *= 10) {
            if (y < c->y0) continue;
            double py = mnw_svg_y(c, y);
            mnw_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, py, R, py);
            snprintf(lab, sizeof lab, yfmt, y);
            mnw_svg_text(c, L - 6, py + 4, "end", "#333", lab);
        }
    } else {
        step = nice_step(c->y1 - c->y0, yticks);
        for (double y = ceil(c->y0 / step - 1e-9) * step; y <= c->y1 + step * 1e-9; y += step) {
            double py = mnw_svg_y(c, y);
            mnw_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, py, R, py);
            snprintf(lab, sizeof lab, yfmt, fabs(y) < 1e-9 * step ? 0.0 : y);
            mnw_svg_text(c, L - 6, py + 4, "end", "#333", lab);
        }
    }
    if (xtitle) mnw_svg_text(c, (L + R) / 2, c->height - 12, "middle", "#000", xtitle);
    if (ytitle) {
        mnw_buf_printf(b, "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\" fill=\"#000\">", (T + B) / 2);
        mnw_svg_escape(b, ytitle);
        mnw_buf_puts(b, "</text>\n");
    }
}

void mnw_svg_bars(mnw_svg *c, const double *xs, const double *ys, int n, double w, const char *color)
{
    double base = mnw_svg_y(c, c->ylog ? c->y0 : (c->y0 > 0 ? c->y0 : 0));
    for (int k = 0; k < n; k++) {
        if (ys[k] <= 0 && c->ylog) continue;
        double xa = mnw_svg_x(c, xs[k]), xb = mnw_svg_x(c, xs[k] + w), y = mnw_svg_y(c, ys[k]);
        double top = y < base ? y : base, h = fabs(base - y);
        if (h < 0.01) continue;
        mnw_buf_printf(c->b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n", xa, top,
             xb - xa > 0.5 ? xb - xa : 0.5, h, color);
    }
}

void mnw_svg_line(mnw_svg *c, const double *xs, const double *ys, int n, const char *color, double width)
{
    mnw_buf_printf(c->b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" points=\"", color, width);
    for (int k = 0; k < n; k++) {
        if (c->ylog && ys[k] <= 0) continue;
        mnw_buf_printf(c->b, "%.1f,%.1f ", mnw_svg_x(c, xs[k]), mnw_svg_y(c, ys[k]));
    }
    mnw_buf_puts(c->b, "\"/>\n");
}

void mnw_svg_vline(mnw_svg *c, double x, const char *label, const char *color, int row)
{
    if (x < c->x0 || x > c->x1) return;
    double px = mnw_svg_x(c, x), T = c->top, B = c->height - c->bottom;
    mnw_buf_printf(c->b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n", px,
         T, px, B, color);
    /* the label on the side with room: right of the line in the left part
     * of the chart, left of it in the right part (not past the edge) */
    int right = px > c->left + 0.6 * (c->width - c->left - c->right);
    if (label) mnw_svg_text(c, right ? px - 3 : px + 3, T + 12 + 14 * row, right ? "end" : "start", color, label);
}

void mnw_svg_legend(mnw_svg *c, int k, const char *color, const char *text)
{
    double x = c->width - c->right - 190, y = c->top + 16 + 16 * k;
    mnw_buf_printf(c->b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n", x, y - 4,
         x + 18, y - 4, color);
    mnw_svg_text(c, x + 24, y, "start", "#000", text);
}
