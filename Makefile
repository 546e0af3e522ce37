# watchlens: `make run` serves the app on a built-in sample, `make test` runs
# every test (vet, native, wasm under node, fuzz, browser).

GO        ?= go
ADDR      ?= 127.0.0.1:8000
BASE      ?= /
# A count of executions, not a duration: with a duration, Go 1.26's fuzz
# coordinator can fail a target with a bare "context deadline exceeded" as
# the time runs out (golang/go#75804, fixed in Go 1.27); a count has no
# deadline to race. Shrinking each new input the fuzzer keeps is bounded
# by a count too: by default it may take a minute an input, so a loaded
# machine spends the run shrinking. docs/performance.md has the times.
FUZZTIME  ?= 10000x
# The targets whose inputs are slow to read, each with a count of its
# own (target=count): FuzzEventStream reads streams of up to 3000 events
# an input, 20-30 inputs a second; FuzzIncident opens six files and asks
# every view and report of them, about 140 inputs a second.
FUZZTIMES ?= FuzzEventStream=500x FuzzIncident=3000x
FUZZMINIMIZE ?= 100x
WASM_EXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
# Where go test -fuzz keeps the inputs that widened coverage.
FUZZCACHE := $(shell $(GO) env GOCACHE)/fuzz
# The packages with no browser dependency, tested again compiled to wasm.
PURE      := ./parser ./timeline ./report ./internal/word ./app/canvas ./app/engine

.PHONY: run test build bench wasm native fuzz lint clean

# The page, and the engine's worker (app/engine/worker), which
# web/engine-worker.js starts beside it.
wasm:
	GOOS=js GOARCH=wasm $(GO) build -o web/app.wasm .
	GOOS=js GOARCH=wasm $(GO) build -o web/engine-worker.wasm ./app/engine/worker

native:
	$(GO) build -o bin/watchlens .

run: wasm native
	./bin/watchlens serve -addr $(ADDR)

build: wasm native
	rm -rf dist
	./bin/watchlens build -o dist -base $(BASE)

# The timeouts are sized for the 2-core machine under load, far past go
# test's default of 10 minutes: docs/performance.md's "The test suite"
# has the times measured.
test:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt would change:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...
	$(MAKE) lint
	$(GO) test -timeout 30m $$($(GO) list ./... | grep -v '^watchlens/e2e$$')
	@# Then again as wasm under node: the pure packages, the browser
	@# runtime (jsrt) and the engine's worker, whose tests build only so.
	GOOS=js GOARCH=wasm $(GO) test -timeout 30m -exec "$(WASM_EXEC)" $(PURE) ./app/jsrt/... ./app/engine/worker
	$(MAKE) fuzz
	@# The browser tests; -v shows that they really ran, and in which
	@# Chromium.
	$(GO) test -count=1 -v -timeout 45m ./e2e

# staticcheck on both builds: go vet misses unused code, and code that only
# one of the native and browser builds uses is easy to leave in the other.
lint:
	GOBIN=$(CURDIR)/bin $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2
	./bin/staticcheck ./...
	GOOS=js GOARCH=wasm ./bin/staticcheck ./...

# Each fuzz target for a short, bounded time (FUZZTIME, or its own in
# FUZZTIMES). A package's
# instrumented test binary is built once and run for each of its
# targets as go test runs it (from the package's folder, with the fuzz
# cache go test keeps): go test -fuzz, run per target, costs the go
# command's own work each time. docs/performance.md has the times.
fuzz:
	@mkdir -p bin/fuzz
	@for pkg in $(PURE); do \
		targets=$$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$pkg/*_test.go 2>/dev/null | sed 's/^func //'); \
		[ -n "$$targets" ] || continue; \
		path=$$($(GO) list $$pkg) || exit 1; \
		bin=$(CURDIR)/bin/fuzz/$$(echo $$path | tr / _).test; \
		$(GO) test -c -fuzz . -o $$bin $$pkg || exit 1; \
		for f in $$targets; do \
			t=$(FUZZTIME); \
			for o in $(FUZZTIMES); do [ "$${o%%=*}" = $$f ] && t=$${o#*=}; done; \
			echo "fuzz $$pkg $$f for $$t"; \
			(cd $$pkg && $$bin -test.paniconexit0 -test.run '^$$' -test.fuzz "^$$f$$" \
				-test.fuzztime $$t -test.fuzzminimizetime $(FUZZMINIMIZE) -test.timeout 10m \
				-test.fuzzcachedir "$(FUZZCACHE)/$$path") || exit 1; \
		done; \
	done

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PURE)
	@# In Chromium: 100 MB and 1 GB of pods, 100 MB of realistic pods and a
	@# million small events, drop to first paint;
	@# then drag and wheel frames over a million events, ten million, and
	@# samples-fleet's 48 files.
	$(GO) test -run '^$$' -bench BrowserLoad -benchtime 1x -timeout 30m ./e2e
	$(GO) test -run '^$$' -bench BrowserTimelineFrame -benchtime 3x -timeout 60m ./e2e
	@# A capture dropped before the page's warm-up and after it; the tab's
	@# peak memory, up to 4 GB captures; the fleet view's frames at 10 000
	@# clients.
	$(GO) test -run '^$$' -bench 'BrowserColdLoad|BrowserTabMemory' -benchtime 1x -timeout 30m ./e2e
	$(GO) test -count=1 -run '^$$' -bench 'BrowserFleetFrame/10000' -benchtime 2x -timeout 30m ./e2e
	@# The load in the engine's Web Worker (app/engine/worker) against the page.
	$(GO) test -run '^$$' -bench BrowserWorkerLoad -benchtime 3x -timeout 30m ./e2e
	@# The whole of samples-lab (207 captures, 6 audit logs, the exports)
	@# chosen at once, to its fleet's first paint with the verdict shown.
	$(GO) test -count=1 -run '^$$' -bench BrowserLabLoad -benchtime 1x -timeout 20m ./e2e
	@# The parser as wasm under node: pod events, repeating and as real
	@# clusters send them, and small events (ConfigMaps, Leases, Events).
	GOOS=js GOARCH=wasm $(GO) test -exec "$(WASM_EXEC)" -run '^$$' -bench 'ReadNDJSON|ReadChunked|ReadRealisticPods|ReadConfigMaps|ReadLeases|ReadEvents' ./parser
	@# The small events in Chromium: the parser's test binary on a page's
	@# main thread.
	$(GO) test -count=1 -run '^$$' -bench BrowserParser -benchtime 3x -timeout 30m ./e2e

clean:
	rm -rf bin dist web/app.wasm web/engine-worker.wasm screenshots
