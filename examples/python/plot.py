"""The pictures of the Python examples: matplotlib when it is installed, else
a small SVG writer of our own (numpy and the standard library only).

    fig = Figure(2, 1, "title")                      # columns, rows
    ax = fig.panel(0, title="...", xlabel="t (s)", ylog=True)
    ax.line(x, y, color="#1f77b4", label="...")
    ax.image(rgb, extent=(x0, x1, y0, y1))           # rgb: (ny, nx, 3) uint8
    path = fig.save("stem")                          # stem.png or stem.svg

`backend("svg")` forces the SVG writer (--svg in the examples).
"""
import base64
import math
import struct
import zlib

import numpy as np

_FORCE_SVG = False


def backend(name=None):
    """'matplotlib' or 'svg': the one the next Figure uses."""
    global _FORCE_SVG
    if name is not None:
        _FORCE_SVG = name == "svg"
    if _FORCE_SVG:
        return "svg"
    try:
        __import__("matplotlib")
        return "matplotlib"
    except ImportError:
        return "svg"


def Figure(cols, rows, title, width=6.0, height=4.5):
    if backend() == "matplotlib":
        return _MplFigure(cols, rows, title, width, height)
    return _SvgFigure(cols, rows, title, width, height)


# ---- matplotlib -------------------------------------------------------------------

class _MplPanel:
    def __init__(self, ax, ylog):
        self.ax, self.ylog = ax, ylog

    def line(self, x, y, color=None, width=1.2, label=None, dashed=False):
        y = np.asarray(y, float)
        if self.ylog:  # zeros leave gaps on a log scale
            y = np.where(y > 0, y, np.nan)
        self.ax.plot(x, y, color=color, lw=width, label=label, ls="--" if dashed else "-")

    def points(self, x, y, color=None, size=12, label=None):
        self.ax.scatter(x, y, s=size, color=color, label=label, zorder=3)

    def image(self, rgb, extent):
        self.ax.imshow(rgb, origin="lower", extent=extent, interpolation="nearest")
        self.ax.grid(False)

    def legend(self):
        self.ax.legend(fontsize=8, frameon=False)


class _MplFigure:
    def __init__(self, cols, rows, title, width, height):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        self.plt = plt
        self.fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows),
                                      squeeze=False)
        self.axes = [a for row in axes for a in row]
        self.fig.suptitle(title)

    def panel(self, i, title="", xlabel="", ylabel="", xlog=False, ylog=False, equal=False):
        ax = self.axes[i]
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if xlog:
            ax.set_xscale("log")
        if ylog:
            ax.set_yscale("log")
        if equal:
            ax.set_aspect("equal")
        ax.grid(alpha=0.3)
        return _MplPanel(ax, ylog)

    def save(self, stem):
        self.fig.tight_layout()
        path = stem + ".png"
        self.fig.savefig(path, dpi=110)
        self.plt.close(self.fig)
        return path


# ---- SVG ----------------------------------------------------------------------------

def _png(rgb):
    """PNG bytes of an (ny, nx, 3) uint8 array, top row first."""
    rgb = np.ascontiguousarray(rgb, dtype=np.uint8)
    ny, nx, _ = rgb.shape
    raw = b"".join(b"\0" + rgb[j].tobytes() for j in range(ny))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", nx, ny, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def _ticks(lo, hi, log):
    if log:
        return [10.0 ** k for k in range(math.ceil(math.log10(lo)),
                                         math.floor(math.log10(hi)) + 1)]
    step = 10 ** math.floor(math.log10((hi - lo) / 4 or 1))
    for m in (1, 2, 5, 10):
        if (hi - lo) / (m * step) <= 6:
            step *= m
            break
    return list(np.arange(math.ceil(lo / step) * step, hi + step * 1e-9, step))


def _fmt(v, log=False):
    if log:
        return "1e%d" % round(math.log10(v)) if not 0.01 <= v <= 1000 else "%g" % v
    return "%g" % (0.0 if abs(v) < 1e-12 else v)  # no "-0" or "1e-17" for zero


class _SvgPanel:
    def __init__(self, box, title, xlabel, ylabel, xlog, ylog, equal):
        self.box, self.title, self.xlabel, self.ylabel = box, title, xlabel, ylabel
        self.xlog, self.ylog, self.equal = xlog, ylog, equal
        self.items, self.labels = [], []

    def _keep(self, x, y):
        keep = np.isfinite(x) & np.isfinite(y)
        if self.xlog:
            keep &= x > 0
        if self.ylog:
            keep &= y > 0
        return keep

    def _data(self, x, y):
        x, y = np.asarray(x, float), np.asarray(y, float)
        keep = self._keep(x, y)
        return x[keep], y[keep]

    def line(self, x, y, color="#1f77b4", width=1.2, label=None, dashed=False):
        x, y = np.asarray(x, float), np.asarray(y, float)
        keep = self._keep(x, y)
        # one polyline per run of drawable points: gaps stay gaps
        edges = np.flatnonzero(np.diff(np.concatenate(([0], keep.astype(int), [0]))))
        for a, b in zip(edges[::2], edges[1::2]):
            self.items.append(("line", x[a:b], y[a:b], color, width, dashed))
        if label:
            self.labels.append((label, color))

    def points(self, x, y, color="#1f77b4", size=12, label=None):
        self.items.append(("points",) + self._data(x, y) + (color, size))
        if label:
            self.labels.append((label, color))

    def image(self, rgb, extent):
        self.items.append(("image", rgb, extent))

    def legend(self):
        pass  # drawn always when there are labels

    def _limits(self):
        xs, ys = [], []
        for it in self.items:
            if it[0] == "image":
                xs += [it[2][0], it[2][1]]
                ys += [it[2][2], it[2][3]]
            elif len(it[1]):
                xs += [it[1].min(), it[1].max()]
                ys += [it[2].min(), it[2].max()]
        lim = []
        for vals, log in ((xs, self.xlog), (ys, self.ylog)):
            lo, hi = (min(vals), max(vals)) if vals else (0.0, 1.0)
            if log:
                lo, hi = 10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi))
            elif hi == lo:
                lo, hi = lo - 1, hi + 1
            lim.append((lo, hi))
        return lim

    def svg(self):
        x0, y0, w, h = self.box
        (xa, xb), (ya, yb) = self._limits()
        if self.equal and not (self.xlog or self.ylog):
            scale = min(w / (xb - xa), h / (yb - ya))
            w, h = (xb - xa) * scale, (yb - ya) * scale

        def X(v):
            v = np.log10(v) if self.xlog else v
            a, b = (math.log10(xa), math.log10(xb)) if self.xlog else (xa, xb)
            return x0 + (v - a) / (b - a) * w

        def Y(v):
            v = np.log10(v) if self.ylog else v
            a, b = (math.log10(ya), math.log10(yb)) if self.ylog else (ya, yb)
            return y0 + h - (v - a) / (b - a) * h

        out = ['<text x="%.1f" y="%.1f" font-size="13" text-anchor="middle">%s</text>'
               % (x0 + w / 2, y0 - 8, self.title)]
        for t in _ticks(xa, xb, self.xlog):
            out.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                       '<text x="%.1f" y="%.1f" font-size="10" text-anchor="middle">%s</text>'
                       % (X(t), X(t), y0, y0 + h, X(t), y0 + h + 14, _fmt(t, self.xlog)))
        for t in _ticks(ya, yb, self.ylog):
            out.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                       '<text x="%.1f" y="%.1f" font-size="10" text-anchor="end">%s</text>'
                       % (x0, x0 + w, Y(t), Y(t), x0 - 4, Y(t) + 3, _fmt(t, self.ylog)))
        out.append('<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle">%s</text>'
                   % (x0 + w / 2, y0 + h + 30, self.xlabel))
        out.append('<text font-size="11" text-anchor="middle" transform="translate(%.1f %.1f) '
                   'rotate(-90)">%s</text>' % (x0 - 40, y0 + h / 2, self.ylabel))
        out.append('<clipPath id="c%d"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f"/>'
                   '</clipPath><g clip-path="url(#c%d)">' % (id(self), x0, y0, w, h, id(self)))
        for it in self.items:
            if it[0] == "image":
                e = it[2]
                data = base64.b64encode(_png(np.asarray(it[1])[::-1])).decode()
                out.append('<image x="%.1f" y="%.1f" width="%.1f" height="%.1f" '
                           'preserveAspectRatio="none" image-rendering="pixelated" '
                           'href="data:image/png;base64,%s"/>'
                           % (X(e[0]), Y(e[3]), X(e[1]) - X(e[0]), Y(e[2]) - Y(e[3]), data))
            elif it[0] == "line" and len(it[1]):
                pts = " ".join("%.1f,%.1f" % p for p in zip(X(it[1]), Y(it[2])))
                out.append('<polyline fill="none" stroke="%s" stroke-width="%g"%s points="%s"/>'
                           % (it[3], it[4], ' stroke-dasharray="5 3"' if it[5] else "", pts))
            elif it[0] == "points":
                out += ['<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s"/>'
                        % (a, b, math.sqrt(it[4]) / 2, it[3]) for a, b in zip(X(it[1]), Y(it[2]))]
        out.append('</g><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" '
                   'stroke="#444"/>' % (x0, y0, w, h))
        for k, (label, color) in enumerate(self.labels):
            out.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" '
                       'stroke-width="2"/><text x="%.1f" y="%.1f" font-size="10">%s</text>'
                       % (x0 + 8, x0 + 24, y0 + 12 + 13 * k, y0 + 12 + 13 * k, color,
                          x0 + 28, y0 + 15 + 13 * k, label))
        return "\n".join(out)


class _SvgFigure:
    def __init__(self, cols, rows, title, width, height):
        self.cols, self.rows, self.title = cols, rows, title
        self.pw, self.ph = width * 80, height * 80
        self.panels = {}

    def panel(self, i, title="", xlabel="", ylabel="", xlog=False, ylog=False, equal=False):
        c, r = i % self.cols, i // self.cols
        box = (c * self.pw + 60, 50 + r * self.ph + 24, self.pw - 80, self.ph - 80)
        self.panels[i] = _SvgPanel(box, title, xlabel, ylabel, xlog, ylog, equal)
        return self.panels[i]

    def save(self, stem):
        W, H = self.cols * self.pw, self.rows * self.ph + 50
        body = "\n".join(p.svg() for p in self.panels.values())
        path = stem + ".svg"
        with open(path, "w", encoding="utf-8") as f:
            f.write('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                    'font-family="sans-serif">\n<rect width="100%%" height="100%%" '
                    'fill="white"/>\n<text x="%.1f" y="28" font-size="15" '
                    'text-anchor="middle">%s</text>\n%s\n</svg>\n'
                    % (W, H, W / 2, self.title, body))
        return path
