"""What a report says, without Qt: the executive summary, the scenario comparison, the knob
table, the levers tried against the bottleneck and the studies the predictions use.

:mod:`app.report` draws it; number formats come from the caller (:class:`~models.report.
wording.Numbers`, which :mod:`app.support.format` satisfies), so the report, the dashboard and the
command line read a figure the same way.
"""
