from rulebook_build.cli import main

raise SystemExit(main())
