/* Text in charts: "^{...}" superscripts and "_{...}" subscripts, escaped
 * for XML, and an estimate of the width a sans-serif font gives it. */
#include "chart_internal.h"

#include <string.h>

/* Advance widths in ems, near those of DejaVu Sans (the usual sans-serif
 * font of SVG renderers); wide enough that estimates err on the safe side. */
static double char_width(unsigned char ch)
{
    if (ch == ' ')
        return 0.33;
    if (strchr("il.,:;|!'`", ch))
        return 0.30;
    if (strchr("fjtI()[]{}/\\-r", ch))
        return 0.42;
    if (strchr("mwMW%@", ch))
        return 0.92;
    if (ch >= 'A' && ch <= 'Z')
        return 0.72;
    return 0.62;
}

double text_width(const char *text, double size)
{
    double w = 0, scale = 1;
    for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
        if ((*s == '^' || *s == '_') && s[1] == '{') {
            scale = 0.7;
            s++;
        } else if (*s == '}' && scale < 1) {
            scale = 1;
        } else if ((*s & 0xc0) != 0x80) { /* one per UTF-8 character */
            w += scale * (*s < 0x80 ? char_width(*s) : 0.7);
        }
    }
    return w * size;
}

static void write_escaped(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        default: fputc(s[i], f);
        }
    }
}

void write_text(FILE *f, double x, double y, double size, int anchor, const char *color,
                int bold, const char *attrs, const char *text)
{
    static const char *const ANCHOR[] = {"", " text-anchor=\"middle\"", " text-anchor=\"end\""};
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.3g\"%s", x, y, size,
            ANCHOR[anchor >= 0 && anchor <= 2 ? anchor : 0]);
    if (color && strcmp(color, "black") != 0)
        fprintf(f, " fill=\"%s\"", color);
    if (bold)
        fputs(" font-weight=\"bold\"", f);
    fprintf(f, "%s%s>", attrs ? " " : "", attrs ? attrs : "");
    while (*text) {
        const char *mark = text;
        while (*mark && !((*mark == '^' || *mark == '_') && mark[1] == '{'))
            mark++;
        write_escaped(f, text, (size_t)(mark - text));
        if (!*mark)
            break;
        const char *end = strchr(mark + 2, '}');
        size_t n = end ? (size_t)(end - mark - 2) : strlen(mark + 2);
        fprintf(f, "<tspan baseline-shift=\"%s\" font-size=\"70%%\">",
                *mark == '^' ? "super" : "sub");
        write_escaped(f, mark + 2, n);
        fputs("</tspan>", f);
        text = end ? end + 1 : mark + 2 + n;
    }
    fputs("</text>\n", f);
}
