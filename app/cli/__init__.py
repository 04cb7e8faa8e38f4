"""The ``headroom`` command line (:mod:`app.cli.main`).

Every command but ``report`` and the app itself runs on the models alone: nothing here
imports Qt at start-up (a test runs the commands and checks).  One module per family of
commands: :mod:`~app.cli.design` (evaluate, sweep, knobs), :mod:`~app.cli.validate`,
:mod:`~app.cli.files` (examples, example, convert), :mod:`~app.cli.report`,
:mod:`~app.cli.analysis` (seek, failure, sensitivity), :mod:`~app.cli.imports` (one
``import-*`` command per design source of :mod:`models.io.importers.registry`) and
:mod:`~app.cli.gui` (the desktop app); each adds its own subcommands to the parser.
"""
