# Top-level build. `make` builds tools/perf/perf; see README.md for the rest.
#
# Every .c file under the source directories is part of the binary; objects go to build/
# (normal) or build-asan/ (ASan+UBSan, for `make test`).

prefix ?= /usr/local
CC ?= cc
V ?= 0

SRC_DIRS := tools/lib/perf tools/perf tools/perf/util tools/perf/builtin tools/perf/tests
SRCS := $(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c))

PKGS := libelf libdw libzstd libtraceevent
DEPS_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
DEPS_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ifeq ($(DEPS_LIBS),)
DEPS_LIBS := -lelf -ldw -lzstd -ltraceevent
DEPS_CFLAGS := -I/usr/include/traceevent
endif

# WERROR=1 makes warnings errors: make test (and CI through it) builds so; a plain `make`
# does not, so that a newer compiler's new warning does not stop a user's build (as perf's
# own `make WERROR=1`)
WERROR ?= 0
WARN := -Wall -Wextra -Wno-missing-field-initializers -Wshadow -Wformat=2 \
	-Wno-format-nonliteral
ifeq ($(WERROR),1)
WARN += -Werror
endif
BASE_CFLAGS := -std=gnu11 -g $(WARN) -Itools/lib/perf/include -Itools/perf $(DEPS_CFLAGS) \
	-D_GNU_SOURCE -MMD -MP
OPT_CFLAGS := -O2
SAN_CFLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

BUILD ?= build
ifeq ($(BUILD),build-asan)
CFLAGS_ALL := $(BASE_CFLAGS) $(SAN_CFLAGS) $(EXTRA_CFLAGS)
LDFLAGS_ALL := -fsanitize=address,undefined $(LDFLAGS)
else
CFLAGS_ALL := $(BASE_CFLAGS) $(OPT_CFLAGS) $(EXTRA_CFLAGS)
LDFLAGS_ALL := $(LDFLAGS)
endif

OBJS := $(patsubst %.c,$(BUILD)/%.o,$(SRCS))
PERF_BIN := $(BUILD)/perf

ifeq ($(V),0)
Q := @
else
Q :=
endif

.PHONY: all deps check-deps test demo install clean fuzz bench asan fresh-machine-test
all: check-deps tools/perf/perf

check-deps:
	$(Q)CC="$(CC)" scripts/check-deps.sh

tools/perf/perf: $(PERF_BIN)
	$(Q)cp $(PERF_BIN) $@.tmp && mv $@.tmp $@

$(PERF_BIN): $(OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) -o $@ $(OBJS) $(LDFLAGS_ALL) $(DEPS_LIBS) -lstdc++ -lm

# the flags are part of what an object is built from: a plain `make` then `make test`
# (WERROR=1) rebuilds, so that make test sees every warning as an error. Rewritten only when
# they change, so its time stamp says when they last did.
FLAGS_FILE := $(BUILD)/.flags
FLAGS_NOW := $(CC) $(CFLAGS_ALL)
$(FLAGS_FILE): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(FLAGS_NOW)' | cmp -s - $@ || printf '%s\n' '$(FLAGS_NOW)' >$@

.PHONY: FORCE
FORCE:

$(BUILD)/%.o: %.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS_ALL) -c -o $@ $<

asan:
	$(Q)CC="$(CC)" scripts/check-deps.sh --asan
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan build-asan/perf

deps:
	$(Q)CC="$(CC)" scripts/install-deps.sh

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

# the README's make demo and make test on a fresh minimal Debian bookworm, as root (see
# scripts/fresh-machine-test.sh)
fresh-machine-test:
	$(Q)scripts/fresh-machine-test.sh

install: all
	install -d $(DESTDIR)$(prefix)/bin $(DESTDIR)$(prefix)/libexec/perf-core/tests/shell \
		$(DESTDIR)$(prefix)/share/doc/perf
	install -m 755 tools/perf/perf $(DESTDIR)$(prefix)/bin/perf
	install -m 755 tools/perf/tests/shell/*.sh $(DESTDIR)$(prefix)/libexec/perf-core/tests/shell/
	# the man pages are asciidoc sources (as perf's); installed as documentation, not built
	install -m 644 Documentation/*.txt README.md $(DESTDIR)$(prefix)/share/doc/perf/

clean:
	rm -rf build build-asan build-fuzz tools/perf/perf

-include $(OBJS:.o=.d)
