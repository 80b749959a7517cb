# shellcheck shell=sh
# scripts/match-verdict.sh — sourced by scripts/xboard-match.sh and
# scripts/polyglot-match.sh (POSIX sh, for both): how a match's games ended,
# judged from the PGN XBoard wrote, the same way for both protocols.

# pgn_clock_seconds PGN: the seconds of thinking the PGN records
# (-pgnExtendedInfo: {score/depth seconds}), all games, both sides.
pgn_clock_seconds() {
    awk '{ while (match($0, /\{[-+]?[0-9.]+\/[0-9]+ [0-9.]+\}/)) {
               n = split(substr($0, RSTART + 1, RLENGTH - 2), f, " "); t += f[2]; $0 = substr($0, RSTART + RLENGTH) } }
         END { printf "%.1f", t }' "$1"
}

# pgn_abnormal_ends PGN: one line for each game whose text shows a forfeit,
# false claim, illegal move, time loss or exit: "INFO ..." when the opponent
# lost it (bachess won: the defect was the opponent's), "FAIL ..." otherwise
# (bachess lost or drew it, or bachess played both sides: the PGN's White
# and Black are both "bachess...").
pgn_abnormal_ends() {
    awk '
        function tag(line) { sub(/^\[[A-Za-z]+ "/, "", line); sub(/"\]\r?$/, "", line); return line }
        function judge(   me_white, me_black, won) {
            if (text == "" || tolower(text) !~ /forfeit|false (win|draw|illegal|claim)|illegal|invalid move|on time|exited|disconnect|crash|lost contact/)
                return
            me_white = tolower(white) ~ /^bachess/; me_black = tolower(black) ~ /^bachess/
            won = (result == "1-0" && me_white && !me_black) || (result == "0-1" && me_black && !me_white)
            detail = text; sub(/.*\{/, "{", detail)
            printf "%s round %s, %s - %s, %s: %s\n", won ? "INFO" : "FAIL", round, white, black, result, detail
        }
        /^\[Event / { judge(); text = ""; white = black = result = round = "" }
        /^\[White / { white = tag($0) }
        /^\[Black / { black = tag($0) }
        /^\[Result / { result = tag($0) }
        /^\[Round / { round = tag($0) }
        { text = text " " $0 }
        END { judge() }' "$1"
}
