"""`python -m app.demo`: run the demo server (stdio unless --http PORT)."""

import sys

from app.demo.launch import main

if __name__ == "__main__":
    sys.exit(main())
