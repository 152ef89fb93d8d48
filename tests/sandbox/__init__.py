"""The sandbox (python bot.py --sandbox): launcher, web client and browser tests."""
