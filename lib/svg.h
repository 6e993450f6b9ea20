/* svg.h - charts as inline SVG text (for `mnw report`, src/report.c): a
 * plot area with axes, ticks and labels, and what goes in it (bars, lines,
 * marked values, labels). Plain SVG 1.1 elements with presentation
 * attributes, no script, no external reference: a page holding them is
 * readable offline. Text is escaped for XML.
 *
 * Coordinates: a chart maps data values (x0..x1, y0..y1) onto its plot
 * area; a log y axis maps log10 of the value.
 * Ownership: writes into the caller's mnw_buf. Thread-safety: functions of
 * their arguments only.
 */
#ifndef MNW_SVG_H
#define MNW_SVG_H

#include "lib/buf.h"

typedef struct {
    mnw_buf *b;
    int width, height;                /* the whole SVG, in px */
    int left, right, top, bottom;     /* margins around the plot area */
    double x0, x1, y0, y1;            /* the data range the plot area shows */
    int ylog;                         /* 1: the y axis is log10 (y0 > 0) */
} mnw_svg;

/* Begins an SVG of width x height px into b, with a title (its <title>,
 * for screen readers and tool tips) and the plot area's data range. */
void mnw_svg_begin(mnw_svg *c, mnw_buf *b, int width, int height, const char *title, double x0, double x1, double y0,
                   double y1, int ylog);
void mnw_svg_end(mnw_svg *c);

/* Pixel position of a data value. */
double mnw_svg_x(const mnw_svg *c, double x);
double mnw_svg_y(const mnw_svg *c, double y);

/* Axes with about nticks ticks each, labelled with fmt (printf, one
 * double), and the axis titles (NULL: none). */
void mnw_svg_axes(mnw_svg *c, int xticks, const char *xfmt, const char *xtitle, int yticks, const char *yfmt,
                  const char *ytitle);
/* Vertical bars from y0 (the axis) to ys[k] over [xs[k], xs[k] + w). */
void mnw_svg_bars(mnw_svg *c, const double *xs, const double *ys, int n, double w, const char *color);
/* A polyline through (xs[k], ys[k]); points with y <= 0 are left out on a
 * log axis. */
void mnw_svg_line(mnw_svg *c, const double *xs, const double *ys, int n, const char *color, double width);
/* A vertical line at data x across the plot area, dashed, with a label
 * (NULL: none) at its top, in text row `row` (0: the top one; lines close
 * together take different rows so that their labels do not overlap), right
 * of the line in the left 60% of the plot area, left of it in the rest. */
void mnw_svg_vline(mnw_svg *c, double x, const char *label, const char *color, int row);
/* Text at pixel (px, py); anchor "start", "middle" or "end". */
void mnw_svg_text(mnw_svg *c, double px, double py, const char *anchor, const char *color, const char *text);
/* A legend entry (a short line in color and its text) at row k of the
 * top-right corner. */
void mnw_svg_legend(mnw_svg *c, int k, const char *color, const char *text);

/* Appends s with &, <, >, " and ' escaped for XML, control characters but
 * tab and newline dropped (DEL too), and made valid UTF-8: each maximal
 * invalid subpart (a stray byte, an overlong form, a surrogate, a sequence
 * cut short) becomes one U+FFFD, as a browser's decoder would show it. The
 * one way text from a run (ids, hosts, paths) goes into the report's page
 * and its charts. */
void mnw_svg_escape(mnw_buf *b, const char *s);

#endif
