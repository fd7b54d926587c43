"""An analysis told in sentences: the marks beside each decision and each seat's total, in the person's language."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tui.i18n import money, tr


def decision_line(decision: Any, lang: str) -> str:
    key = f"analysis.{decision.mark}" if decision.mark else "analysis.fine"
    if decision.best == decision.made:
        key = "analysis.best"
    return tr(lang, key, deal=decision.deal, index=decision.index, name=decision.name, made=decision.made,
              best=decision.best, loss=money(round(decision.loss), lang))


def seat_line(report: Any, lang: str) -> str:
    if not report.judged:
        return tr(lang, "analysis.seat_none", name=report.name)
    return tr(lang, "analysis.seat", name=report.name, loss=money(round(report.loss), lang), judged=report.judged,
              mistakes=report.mistakes, blunders=report.blunders)


def report_lines(result: Any, lang: str, marked_only: bool = True) -> list[str]:
    """The costly decisions (or all), then one line a seat."""
    lines = [tr(lang, "analysis.head", budget=result.budget, mistake=money(round(result.mistake_at), lang),
                blunder=money(round(result.blunder_at), lang))]
    lines += [decision_line(d, lang) for d in result.decisions if d.mark or not marked_only]
    lines += [seat_line(s, lang) for s in result.seats]
    return lines


def lines_of_json(analysis: dict[str, Any], lang: str) -> list[str]:
    """``report_lines`` of an analysis kept as JSON (``engine.analysis.Analysis.to_json``)."""
    result = SimpleNamespace(**{k: v for k, v in analysis.items() if k not in ("decisions", "seats")})
    result.decisions = [SimpleNamespace(**d) for d in analysis["decisions"]]
    result.seats = [SimpleNamespace(**s) for s in analysis["seats"]]
    return report_lines(result, lang)
