from cognimem.cli import main

main()
