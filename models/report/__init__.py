"""What a report says, without Qt: the executive summary, the scenario comparison, the knob
table, the levers tried against the bottleneck and the studies the predictions use.

:mod:`app.report` draws it; every figure reads through :mod:`models.document.numbers` and
every KPI through :mod:`models.engine.kpis`, as on the dashboard and the command line, so all
three read a figure the same way.
"""
