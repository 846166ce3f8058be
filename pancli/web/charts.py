"""Charts drawn on the server as inline SVG: no script, so they show with JavaScript off too."""

from __future__ import annotations

from markupsafe import Markup, escape


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def running_chart(points: list[tuple[str, int]], width: int = 340, height: int = 150, title: str = "") -> Markup:
    """A line of running totals (label, value) with the zero line, the first and last labels,
    and the highest and lowest values marked. Scales to its box (viewBox), so it fits a phone or a TV."""
    if not points:
        return Markup("")
    pad_l, pad_r, pad_t, pad_b = 40, 10, 10, 22
    values = [v for _, v in points]
    lo, hi = min(values + [0]), max(values + [0])
    if hi == lo:
        hi, lo = hi + 1, lo - 1
    n = len(points)
    w, h = width - pad_l - pad_r, height - pad_t - pad_b

    def x(i: int) -> float:
        return pad_l + (w * i / (n - 1) if n > 1 else w / 2)

    def y(v: int) -> float:
        return pad_t + h * (hi - v) / (hi - lo)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    last = values[-1]
    tone = "up" if last > 0 else ("down" if last < 0 else "flat")
    parts = [
        f'<svg class="chart {tone}" viewBox="0 0 {width} {height}" role="img" '
        f'preserveAspectRatio="xMidYMid meet" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line class="zero" x1="{pad_l}" x2="{width - pad_r}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>',
        f'<text class="axis" x="{pad_l - 4}" y="{y(hi) + 4:.1f}" text-anchor="end">{_signed(hi)}</text>',
        f'<text class="axis" x="{pad_l - 4}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>' if lo < 0 < hi else "",
        f'<text class="axis" x="{pad_l - 4}" y="{y(lo) + 4:.1f}" text-anchor="end">{_signed(lo)}</text>',
        f'<polyline class="line" points="{line}"/>',
        "".join(f'<circle class="dot" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3"><title>{escape(label)}: '
                f'{_signed(v)}</title></circle>' for i, (label, v) in enumerate(points)) if n <= 40 else "",
        f'<text class="axis" x="{pad_l}" y="{height - 6}">{escape(points[0][0])}</text>',
        f'<text class="axis" x="{width - pad_r}" y="{height - 6}" text-anchor="end">{escape(points[-1][0])}</text>'
        if n > 1 else "",
        "</svg>",
    ]
    return Markup("".join(parts))
