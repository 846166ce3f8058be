"""Charts drawn on the server as inline SVG: no script, so they show with JavaScript off too."""

from __future__ import annotations

from datetime import date

from markupsafe import Markup, escape

from pancli.core.words import signed


def _day(label: str) -> int | None:
    try:
        return date.fromisoformat(label[:10]).toordinal()
    except ValueError:
        return None


def running_chart(points: list[tuple[str, int]], width: int = 340, height: int = 150, title: str = "") -> Markup:
    """A line of running totals (label, value) with the zero line, the first and last labels,
    and the highest and lowest values marked. Scales to its box (viewBox), so it fits a phone or a TV.
    Labels that are all dates (2026-10-16) are placed by the day, so a gap of a month looks like one;
    a single point is a dot, not a line."""
    if not points:
        return Markup("")
    days = [_day(label) for label, _ in points]
    pad_l, pad_r, pad_t, pad_b = 40, 10, 10, 22
    values = [v for _, v in points]
    lo, hi = min(values + [0]), max(values + [0])
    if hi == lo:
        hi, lo = hi + 1, lo - 1
    n = len(points)
    w, h = width - pad_l - pad_r, height - pad_t - pad_b

    dated = None not in days and days[-1] != days[0]

    def x(i: int) -> float:
        if dated:
            first, span = days[0], days[-1] - days[0]  # type: ignore[operator]
            return pad_l + w * (days[i] - first) / span  # type: ignore[operator]
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
        f'<text class="axis" x="{pad_l - 4}" y="{y(hi) + 4:.1f}" text-anchor="end">{signed(hi)}</text>',
        f'<text class="axis" x="{pad_l - 4}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>' if lo < 0 < hi else "",
        f'<text class="axis" x="{pad_l - 4}" y="{y(lo) + 4:.1f}" text-anchor="end">{signed(lo)}</text>',
        f'<polyline class="line" points="{line}"/>' if n > 1 else "",
        "".join(f'<circle class="dot" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3"><title>{escape(label)}: '
                f'{signed(v)}</title></circle>' for i, (label, v) in enumerate(points)) if n <= 40 else "",
        f'<text class="axis" x="{pad_l}" y="{height - 6}">{escape(points[0][0])}</text>' if n > 1 else
        f'<text class="axis" x="{x(0):.1f}" y="{height - 6}" text-anchor="middle">{escape(points[0][0])}</text>',
        f'<text class="axis" x="{width - pad_r}" y="{height - 6}" text-anchor="end">{escape(points[-1][0])}</text>'
        if n > 1 else "",
        "</svg>",
    ]
    return Markup("".join(parts))
