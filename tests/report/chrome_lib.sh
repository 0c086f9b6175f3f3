# Headless Chromium for the report suites, as the brief runs it: source it
# after tests/lib.sh. A missing chromium fails the suite with the command
# that installs it (never a skip).
CHROMIUM=$(command -v chromium || true)
if [ -z "$CHROMIUM" ]; then
	not_ok "chromium is installed" "install it: apt-get install chromium" \
		"(scripts/install-deps does)"
	done_testing
	exit 1
fi
# chrome FLAGS... URL: headless Chromium, as root, offline, with a profile
# of its own, its log on stderr.
chrome() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$TMP/chrome.XXXXXX")" \
		--enable-logging=stderr --v=0 "$@"
}
