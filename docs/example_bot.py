#!/usr/bin/env python3
"""A complete external Adaptoid bot in the standard library only (urllib + json).

It reads its events from ``GET /api/v1/stream/events`` (one JSON object per line),
accepts every challenge addressed to it, and whenever it is to move picks a random
legal turn from ``GET /api/v1/games/{id}/legal`` and plays it with
``POST /api/v1/games/{id}/turns``.  Replace ``choose`` with something cleverer.

    # once: an account and a token
    curl -X POST localhost:8000/api/v1/accounts -H 'Content-Type: application/json' \
         -d '{"username": "mybot", "password": "a long secret phrase"}'
    curl -X POST localhost:8000/api/v1/auth/token -H 'Content-Type: application/json' \
         -d '{"username": "mybot", "password": "a long secret phrase"}'
    # then: become a bot account, challenge the built-in random bot, play one game
    python3 docs/example_bot.py --token TOKEN --become-bot --challenge random-bot --games 1

Without ``--games`` it plays forever (reconnecting when the server ends a stream).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import urllib.error
import urllib.request
from typing import Any


class Client:
    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.server + path, data=data, method=method, headers=self.headers
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"null")

    def events(self) -> Any:
        """Yield the stream's events (dicts) until the server ends the connection."""
        request = urllib.request.Request(
            self.server + "/api/v1/stream/events",
            headers={**self.headers, "Accept": "application/x-ndjson"},
        )
        # The server sends an empty line every few seconds, well inside this timeout.
        with urllib.request.urlopen(request, timeout=60) as response:
            for line in response:
                if line.strip():  # empty lines only keep the connection alive
                    yield json.loads(line)


def choose(turns: list[str]) -> str:
    return random.choice(turns)


class Bot:
    def __init__(self, client: Client, games: int | None) -> None:
        self.client = client
        self.games_left = games
        self.finished: set[int] = set()

    def play(self, game: dict[str, Any]) -> None:
        """Act in `game` (as sent on the stream) if it is our move."""
        game_id = game["id"]
        try:
            if game["status"] == "setup":
                # Pie opening: "white" places both adaptoids, then "black" picks a colour.
                if game["color"] == "white" and not game["position"]:
                    self.client.request(
                        "POST", f"/api/v1/games/{game_id}/setup", {"white": "D2", "black": "D6"}
                    )
                elif game["color"] == "black" and game["position"]:
                    self.client.request(
                        "POST", f"/api/v1/games/{game_id}/choose", {"color": "white"}
                    )
                return
            if game["status"] != "active" or game["to_move"] != game["color"]:
                return
            legal = self.client.request("GET", f"/api/v1/games/{game_id}/legal")
            if not legal["turns"]:
                return
            turn = choose(legal["turns"])
            self.client.request(
                "POST", f"/api/v1/games/{game_id}/turns", {"ply": legal["ply"], "turn": turn}
            )
            print(f"game {game_id}: played {legal['ply']}. {turn}", flush=True)
        except urllib.error.HTTPError as error:
            # 409 stale_ply / not_your_turn / game_over: the game moved on meanwhile.
            if error.code != 409:
                raise

    def handle(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "challenge" and event["challenge"]["status"] == "open":
            challenge = event["challenge"]["id"]
            try:
                self.client.request("POST", f"/api/v1/challenges/{challenge}/accept")
                print(f"accepted challenge {challenge}", flush=True)
            except urllib.error.HTTPError as error:
                if error.code != 409:  # challenge_closed: cancelled or already taken
                    raise
        elif kind in ("game_start", "turn"):
            self.play(event["game"])
        elif kind == "game_finish":
            game = event["game"]
            if game["id"] not in self.finished:
                self.finished.add(game["id"])
                print(f"game {game['id']} over: {game['result']}", flush=True)
                if self.games_left is not None:
                    self.games_left -= 1

    def run(self) -> None:
        while self.games_left is None or self.games_left > 0:
            for event in self.client.events():
                self.handle(event)
                if self.games_left is not None and self.games_left <= 0:
                    return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="from POST /api/v1/auth/token")
    parser.add_argument("--become-bot", action="store_true", help="POST /api/v1/me/bot first")
    parser.add_argument("--challenge", metavar="USERNAME", help="challenge this player first")
    parser.add_argument("--rated", action="store_true", help="make the challenge rated")
    parser.add_argument("--games", type=int, help="stop after this many finished games")
    args = parser.parse_args(argv)
    client = Client(args.server, args.token)
    if args.become_bot:
        client.request("POST", "/api/v1/me/bot")
    if args.challenge:
        made = client.request(
            "POST", "/api/v1/challenges", {"opponent": args.challenge, "rated": args.rated}
        )
        print(f"challenged {args.challenge}: challenge {made['id']}", flush=True)
    try:
        Bot(client, args.games).run()
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
