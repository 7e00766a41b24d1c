from simdup_gui.cli import main

raise SystemExit(main())
