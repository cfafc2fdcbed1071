# Top-level build. `make` builds tools/perf/perf; see README.md for the rest.
#
# Every .c file under the source directories is part of a library or of the binary (see
# below); objects go to build/ (normal) or build-asan/ (ASan+UBSan, for `make test`).

prefix ?= /usr/local
CC ?= cc
CXX ?= g++
V ?= 0

# Two libraries and the program: the file-format library (tools/lib/perf: no symbols, no
# output), the util library (tools/perf/util: everything the commands share) and the perf
# binary (perf.c, the builtins, perf report's browser in tools/perf/ui and `perf test`,
# whose tests live in the binary). The fuzz targets (tools/perf/tests/fuzz/Makefile) link
# the same two libraries.
LIBPERF_SRCS := $(wildcard tools/lib/perf/*.c)
UTIL_SRCS := $(wildcard tools/perf/util/*.c)
PERF_SRCS := $(foreach d,tools/perf tools/perf/builtin tools/perf/ui tools/perf/tests,$(wildcard $(d)/*.c))
# C++ only where a test needs C++ itself: the workload whose callers are in libstdc++
PERF_CXX_SRCS := $(wildcard tools/perf/tests/*.cc)
SRCS := $(LIBPERF_SRCS) $(UTIL_SRCS) $(PERF_SRCS) $(PERF_CXX_SRCS)

# ncursesw: perf report's browser (tools/perf/ui/tui.c)
PKGS := libelf libdw libzstd libtraceevent ncursesw
DEPS_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
DEPS_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ifeq ($(DEPS_LIBS),)
DEPS_LIBS := -lelf -ldw -lzstd -ltraceevent -lncursesw -ltinfo
DEPS_CFLAGS := -I/usr/include/traceevent
endif

# upstream perf's EXTRA_WARNINGS (tools/scripts/Makefile.include), every one, with the
# -Wstrict-aliasing=3 it adds for gcc (clang takes it and ignores it). gcc's
# -Wdeclaration-after-statement leaves this gnu11 code's for-loop declarations alone. Its
# -Wformat after -Wformat=2 sets the level back to 1, the same set here: -Wformat-security
# and -Wformat-y2k are named, and -Wformat-nonliteral is off on purpose.
EXTRA_WARNINGS := -Wbad-function-cast -Wdeclaration-after-statement -Wformat-security \
	-Wformat-y2k -Winit-self -Wmissing-declarations -Wmissing-prototypes -Wnested-externs \
	-Wno-system-headers -Wold-style-definition -Wpacked -Wredundant-decls -Wshadow \
	-Wstrict-prototypes -Wswitch-default -Wswitch-enum -Wundef -Wwrite-strings -Wformat \
	-Wstrict-aliasing=3
WARN := -Wall -Wextra -Wno-missing-field-initializers -Wshadow -Wformat=2 \
	-Wno-format-nonliteral $(EXTRA_WARNINGS)
# upstream perf's hardening defaults (Makefile.config): this tool parses untrusted files.
# -strong rather than upstream's -all: the per-sample paths keep their speed
HARDEN := -fstack-protector-strong -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2
BASE_CFLAGS := -std=gnu11 -g $(WARN) $(HARDEN) -Itools/lib/perf/include -Itools/perf $(DEPS_CFLAGS) \
	-D_GNU_SOURCE -MMD -MP
# the same warnings for C++, less those g++ refuses as C-only
C_ONLY_WARNINGS := -Wbad-function-cast -Wdeclaration-after-statement -Wmissing-prototypes \
	-Wnested-externs -Wold-style-definition -Wstrict-prototypes
BASE_CXXFLAGS := -std=gnu++17 $(filter-out -std=gnu11 $(C_ONLY_WARNINGS),$(BASE_CFLAGS))
OPT_CFLAGS := -O2
SAN_CFLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

BUILD ?= build
ifeq ($(BUILD),build-asan)
CFLAGS_ALL := $(BASE_CFLAGS) $(SAN_CFLAGS) $(EXTRA_CFLAGS)
CXXFLAGS_ALL := $(BASE_CXXFLAGS) $(SAN_CFLAGS) $(EXTRA_CXXFLAGS)
LDFLAGS_ALL := -fsanitize=address,undefined $(LDFLAGS)
else
CFLAGS_ALL := $(BASE_CFLAGS) $(OPT_CFLAGS) $(EXTRA_CFLAGS)
CXXFLAGS_ALL := $(BASE_CXXFLAGS) $(OPT_CFLAGS) $(EXTRA_CXXFLAGS)
LDFLAGS_ALL := $(LDFLAGS)
endif

# warnings never stop an object's build (a newer compiler's new warning must not stop a
# user's `make`), and the flags an object is built with do not depend on WERROR: what the
# compiler says of x.o is kept in x.warn beside it, and WERROR=1 (make test, CI) fails when
# any of the binary's objects has something there. So a plain `make` followed by `make test`
# compiles nothing twice, and make test still sees every warning.
WERROR ?= 0

obj = $(patsubst %.cc,$(BUILD)/%.o,$(patsubst %.c,$(BUILD)/%.o,$(1)))
LIBPERF_OBJS := $(call obj,$(LIBPERF_SRCS))
UTIL_OBJS := $(call obj,$(UTIL_SRCS))
PERF_OBJS := $(call obj,$(PERF_SRCS) $(PERF_CXX_SRCS))
OBJS := $(LIBPERF_OBJS) $(UTIL_OBJS) $(PERF_OBJS)
LIBPERF_A := $(BUILD)/libperf.a
UTIL_A := $(BUILD)/libperf-util.a
PERF_BIN := $(BUILD)/perf
AR ?= ar

ifeq ($(V),0)
Q := @
else
Q :=
endif

ifeq ($(WERROR),1)
CHECK_WARNINGS := check-warnings
endif

.PHONY: all deps check-deps check-warnings test test-deps demo install clean fuzz fuzz-long bench asan \
	fresh-machine-test vmtest upstream-tests
all: check-deps tools/perf/perf $(CHECK_WARNINGS)

check-deps:
	$(Q)CC="$(CC)" scripts/check-deps.sh

tools/perf/perf: $(PERF_BIN)
	$(Q)cp $(PERF_BIN) $@.tmp && mv $@.tmp $@

$(LIBPERF_A): $(LIBPERF_OBJS)
$(UTIL_A): $(UTIL_OBJS)
$(LIBPERF_A) $(UTIL_A):
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# the util library sits on the file-format library, never the other way round
$(PERF_BIN): $(PERF_OBJS) $(UTIL_A) $(LIBPERF_A)
	@echo "  LINK    $@"
	$(Q)$(CC) -o $@ $(PERF_OBJS) $(UTIL_A) $(LIBPERF_A) $(LDFLAGS_ALL) $(DEPS_LIBS) -lstdc++ -lm

check-warnings: $(OBJS)
	$(Q)w=$$(grep -l . $(OBJS:.o=.warn) 2>/dev/null); \
	if [ -n "$$w" ]; then \
		cat $$w >&2; \
		echo "WERROR=1: the warnings above (of $$(echo $$w | sed 's/\.warn$$/.o/; s/\.warn /.o /g')) are errors" >&2; \
		exit 1; \
	fi

# the flags are part of what an object is built from: a change rebuilds everything.
# Rewritten only when they change, so its time stamp says when they last did.
FLAGS_FILE := $(BUILD)/.flags
FLAGS_NOW := $(CC) $(CFLAGS_ALL); $(CXX) $(CXXFLAGS_ALL) (warnings kept in .warn files)
$(FLAGS_FILE): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(FLAGS_NOW)' | cmp -s - $@ || printf '%s\n' '$(FLAGS_NOW)' >$@

.PHONY: FORCE
FORCE:

$(BUILD)/%.o: %.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS_ALL) -c -o $@ $< 2>$(@:.o=.warn); rc=$$?; cat $(@:.o=.warn) >&2; exit $$rc

$(BUILD)/%.o: %.cc $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CXX     $@"
	$(Q)$(CXX) $(CXXFLAGS_ALL) -c -o $@ $< 2>$(@:.o=.warn); rc=$$?; cat $(@:.o=.warn) >&2; exit $$rc

asan:
	$(Q)CC="$(CC)" scripts/check-deps.sh --asan
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan build-asan/perf $(CHECK_WARNINGS)

deps:
	$(Q)CC="$(CC)" scripts/install-deps.sh

# the reference tools the differential tests compare against: upstream perf 7.2, the system
# perf, hotspot's perfparser (as root; make deps runs it too)
test-deps:
	$(Q)scripts/test-deps.sh

test: deps
	$(Q)$(MAKE) --no-print-directory WERROR=1 all
	$(Q)$(MAKE) --no-print-directory WERROR=1 asan
	$(Q)scripts/run-tests.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/demo.sh

bench: all
	$(Q)bench/run.sh

fuzz:
	$(Q)$(MAKE) --no-print-directory -f tools/perf/tests/fuzz/Makefile WERROR=$(WERROR)

# each fuzz target for 10 million executions (hours; not in CI), see tools/perf/tests/fuzz/Makefile
fuzz-long:
	$(Q)$(MAKE) --no-print-directory -f tools/perf/tests/fuzz/Makefile long WERROR=$(WERROR)

# the README's make demo and make test on a fresh minimal Debian bookworm, as root (see
# scripts/fresh-machine-test.sh)
fresh-machine-test:
	$(Q)scripts/fresh-machine-test.sh

# our perf record on Debian sid's current kernel (deferred user callchains) under qemu, with
# the files checked on the host, as root (see scripts/vmtest.sh)
vmtest: all
	$(Q)scripts/vmtest.sh

# upstream perf's own shell tests for the commands we ship, run against ours and against
# upstream 7.2 in the sid tree, as root (see scripts/upstream-tests.sh)
upstream-tests: all
	$(Q)scripts/upstream-tests.sh

install: all
	install -d $(DESTDIR)$(prefix)/bin $(DESTDIR)$(prefix)/libexec/perf-core/tests/shell \
		$(DESTDIR)$(prefix)/share/doc/perf
	install -m 755 tools/perf/perf $(DESTDIR)$(prefix)/bin/perf
	install -m 755 tools/perf/tests/shell/*.sh $(DESTDIR)$(prefix)/libexec/perf-core/tests/shell/
	install -d $(DESTDIR)$(prefix)/libexec/perf-core/tests/shell/lib
	install -m 644 tools/perf/tests/shell/lib/*.awk $(DESTDIR)$(prefix)/libexec/perf-core/tests/shell/lib/
	# the man pages are asciidoc sources (as perf's); installed as documentation, not built
	install -m 644 Documentation/*.txt README.md $(DESTDIR)$(prefix)/share/doc/perf/

clean:
	rm -rf build build-asan build-fuzz tools/perf/perf

-include $(OBJS:.o=.d)
