#!/usr/bin/env bash
# tools/gpio-vm-arm64/build.sh [CACHE_DIR] — prepare what run.sh boots: an aarch64 QEMU guest
# (-M virt, TCG) on Debian 13's own arm64 kernel, with a gpio-sim chip and a 16550 UART.
#
#   sudo tools/gpio-vm-arm64/build.sh            # CACHE_DIR: ~/.cache/fpmod-gpio-vm-arm64
#
# The arm64 sibling of ../shared/tools/gpio-vm/build.sh (read its README for the idea):
# - Debian's kernels have CONFIG_GPIO_SIM (and CONFIG_IRQ_SIM) off, so gpio-sim.ko is compiled
#   from the matching linux-source against the matching linux-headers. It is compiled
#   natively, in a cached Debian 13 arm64 root under qemu-user (common.sh: the "builder"),
#   with trixie's own gcc: two C files, about two minutes under emulation, then cached. The
#   three header packages are unpacked there, not installed (see install_headers).
# - The kernel is whatever linux-image-arm64 names in the builder's apt lists, resolved on
#   every run (the lists are refreshed weekly, and when a download fails); never
#   hard-coded. A new ABI means a new build in CACHE_DIR/<abi>_<version>, CACHE_DIR/current
#   switched to it when complete, and the old one deleted. If a rebuild fails, the last good
#   build stays in use.
# - The base initramfs (uncompressed cpio): busybox-static and libgpiod 2's tools from trixie
#   arm64 with their libraries, the modules the guest needs (gpio-sim, plus configfs and
#   8250_pci when the kernel has them as modules), and ./init. The fpmod binary travels in
#   the payload (payload.sh).
# Every stage stamps a fingerprint of its recipe and inputs: with nothing changed a run only
# checks (about 5 s).
#
# Measured on a 2-core host (its .debs already in FPMOD_CI_CACHE): builder root 3-5 min,
# kernel 18-52 s, linux-source 27-38 s, headers and gpio-sim.ko 2-5 min, initramfs 4-7 s;
# 6-12 min in all, depending on the host's load. Warm: 2-6 s. The builder root is made again
# when tools/lib/debian-root.sh renews the trixie arm64 base (every 14 days).
#
# Installs on the host what it lacks: qemu-system-arm (qemu-system-aarch64), cpio, xz-utils,
# qemu-user-static, binfmt-support, debootstrap. Needs root and Debian's mirror (trixie arm64).
# Prints each step's time.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/gpio-vm-arm64/common.sh
. "$HERE/common.sh"

case ${1:-} in
  -h | --help)
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
    exit 0
    ;;
esac
[ $# -le 1 ] || gva_die "usage: build.sh [CACHE_DIR]"
CACHE=${1:-${XDG_CACHE_HOME:-${HOME:?HOME is unset; pass CACHE_DIR}/.cache}/fpmod-gpio-vm-arm64}
HOST_PKGS=(qemu-system-arm cpio xz-utils)
GPIOD_TOOLS=(gpiodetect gpioinfo gpioget gpioset gpiomon gpionotify)
T0=$(gva_now)

step() { # NAME COMMAND...: runs it and prints its time
  local t
  t=$(gva_now)
  "${@:2}"
  gva_log "step $1: $(gva_secs "$t")"
}

# ---------------------------------------------------------------------------- the kernel

# linux-image-arm64 is a metapackage whose Depends names the current ABI at an exact
# version, e.g. "linux-image-6.12.117+deb13-arm64 (= 6.12.117-1)". The host's apt-cache reads
# the builder's lists natively (2 s; the emulated one takes 15 s).
builder_apt_cache() {
  apt-cache -o Dir::State::Lists="$ROOT/var/lib/apt/lists" -o Dir::State::status="$ROOT/var/lib/dpkg/status" \
    -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Architecture=arm64 \
    -o Dir::Etc::SourceList="$ROOT/etc/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
    -o Dir::Etc::Preferences=/nonexistent -o Dir::Etc::PreferencesParts=/nonexistent "$@"
}
resolve_kernel() {
  local dep re='(linux-image-([0-9][^ ,]*)) \(= ([^)]+)\)'
  dep=$(builder_apt_cache show --no-all-versions linux-image-arm64 2>/dev/null | sed -n 's/^Depends: //p') || true
  [[ $dep =~ $re ]] || return 1
  KPKG=${BASH_REMATCH[1]}
  ABI=${BASH_REMATCH[2]}
  KVER=${BASH_REMATCH[3]}
  SERIES=${ABI%%-*}
  SERIES=${SERIES%.*} # 6.12.117+deb13-arm64 -> 6.12: linux-source is named by series
  SERIES=${SERIES%%+*}
  KEY=${ABI}_${KVER}
  DIR=$CACHE/$KEY
}

# The builder's lists are refreshed weekly (a new kernel ABI shows up then), and at once when
# a download fails (the mirror dropped the version they name). Under qemu-user apt-get update
# takes ~2 min, mostly parsing.
LISTS_UPDATED=
lists_update() {
  [ -z "$LISTS_UPDATED" ] || return 0
  LISTS_UPDATED=1
  local t
  t=$(gva_now)
  gva_log "apt-get update in the builder root (~2 min under qemu-user)"
  inside "apt-get update -qq" || gva_log "warning: apt-get update failed; using the lists as they are"
  gva_log "step apt-get update: $(gva_secs "$t")"
}
lists_fresh() { [ -n "$(find "$ROOT"/var/lib/apt/lists -maxdepth 1 -name '*_InRelease' -mmin -10080 2>/dev/null)" ]; }

# Downloads PKG=VERSION... with apt inside the builder (one apt run: each one reads the
# package lists, ~15 s under qemu-user), moves the .debs to DIR, prints their paths in order.
download() { # DIR PKG=VERSION...
  local dir=$1 dl=/var/tmp/gpio-vm-arm64-dl out spec debs
  shift
  rm -rf "${ROOT:?}$dl" && mkdir -p "$ROOT$dl"
  gva_log "downloading $*"
  if ! out=$(inside "cd $dl && apt-get download -qq -o APT::Sandbox::User=root $*" 2>&1); then
    touch "$CACHE/.download-failed"
    gva_die "could not download $* from the Debian mirror:" "$out" \
      "the mirror keeps only current kernels (and their sources)"
  fi
  for spec; do
    debs=("$ROOT$dl/${spec%%=*}"_*.deb)
    [ -f "${debs[0]}" ] || gva_die "apt-get download $spec left no .deb"
    mv "${debs[0]}" "$dir/"
    printf '%s\n' "$dir/$(basename "${debs[0]}")"
  done
  rm -rf "${ROOT:?}$dl"
}

# The config says which of the guest's needs are modules; modules.dep gives their
# dependencies, loaded first.
wanted_modules() { # CONFIG: the module names the guest must insmod (beyond gpio-sim)
  local sym mod
  for sym in CONFIG_CONFIGFS_FS:configfs CONFIG_SERIAL_8250_PCI:8250_pci CONFIG_SERIAL_8250:8250 \
    CONFIG_SERIAL_8250_PCILIB:8250_pcilib CONFIG_GPIO_SIM:gpio-sim; do
    mod=${sym#*:}
    sym=${sym%%:*}
    if grep -qx "$sym=m" "$1"; then echo "$mod"; fi
  done
}

fetch_kernel() {
  local work=$DIR/work deb f img=$DIR/work/boot/vmlinuz-$ABI config m
  rm -rf "$work" && mkdir -p "$work"
  deb=$(download "$work" "$KPKG=$KVER")
  gva_log "unpacking the kernel image"
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" "./boot/vmlinuz-$ABI" "./boot/config-$ABI"
  config=$work/boot/config-$ABI
  { [ -f "$img" ] && [ -f "$config" ]; } || gva_die "$KPKG $KVER has no boot/vmlinuz-$ABI or boot/config-$ABI"
  grep -qx 'CONFIG_GPIO_CDEV=y' "$config" || gva_die "$KPKG has no GPIO character device (CONFIG_GPIO_CDEV)"
  grep -qx 'CONFIG_SERIAL_AMBA_PL011_CONSOLE=y' "$config" || gva_die "$KPKG has no PL011 console"
  grep -Eqx 'CONFIG_SERIAL_8250_PCI=[ym]' "$config" || gva_die "$KPKG has no 8250_pci: the module's 16550 is a QEMU pci-serial"
  grep -Eqx 'CONFIG_CONFIGFS_FS=[ym]' "$config" || gva_die "$KPKG has no configfs; gpio-sim is configured through it"

  # Only the modules the guest loads, and what they depend on (modinfo's depends=, since
  # modules.dep is made by depmod at install time), one tar pass per level, loaded deepest
  # first.
  rm -rf "$DIR/image-modules" && mkdir -p "$DIR/image-modules"
  local want=() have=() order=() pats name f deps d
  mapfile -t want < <(wanted_modules "$config")
  while [ ${#want[@]} -gt 0 ]; do
    pats=()
    for m in "${want[@]}"; do pats+=("*/modules/$ABI/*/$m.ko*" "*/modules/$ABI/*/${m//-/_}.ko*"); done
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards "${pats[@]}" 2>/dev/null || true
    local next=()
    for m in "${want[@]}"; do
      f=$(find "$work" \( -name "$m.ko*" -o -name "${m//-/_}.ko*" \) -type f | head -n 1)
      [ -n "$f" ] || gva_die "$KPKG has no module $m"
      name=$(basename "${f%.ko*}").ko
      case $f in
        *.ko) cp "$f" "$DIR/image-modules/$name" ;;
        *.ko.xz) xz -dc "$f" >"$DIR/image-modules/$name" ;;
        *.ko.gz) gzip -dc "$f" >"$DIR/image-modules/$name" ;;
        *.ko.zst) zstd -qdc "$f" >"$DIR/image-modules/$name" ;;
        *) gva_die "unsupported module compression: $f" ;;
      esac
      have+=("$name")
      order=("$name" "${order[@]}")
      deps=$(tr '\0' '\n' <"$DIR/image-modules/$name" | sed -n 's/^depends=//p' | head -n 1)
      for d in ${deps//,/ }; do
        [[ " ${have[*]} " == *" $d.ko "* ]] || next+=("$d")
      done
    done
    want=("${next[@]}")
  done
  # Deepest dependencies first, each once.
  : >"$DIR/image-modules/load-order"
  for m in "${order[@]}"; do grep -qx "$m" "$DIR/image-modules/load-order" || echo "$m" >>"$DIR/image-modules/load-order"; done

  # QEMU 7.2 loads a raw or gzipped arm64 Image; an EFI zboot image (an "MZ...zimg" PE whose
  # payload is compressed) it cannot, so it is unpacked here. Unpacking a gzip here too saves
  # each boot the decompression.
  case $(od -An -tx1 -N4 "$img" | tr -d ' \n') in
    1f8b*) gzip -dc "$img" >"$DIR/kernel.tmp" ;;
    4d5a*)
      if [ "$(od -An -c -j4 -N4 "$img" | tr -d ' ')" = zimg ]; then
        local off len comp
        off=$(od -An -tu4 -j8 -N4 "$img" | tr -d ' ')
        len=$(od -An -tu4 -j12 -N4 "$img" | tr -d ' ')
        comp=$(dd if="$img" bs=1 skip=24 count=32 status=none | tr -d '\0')
        case $comp in
          gzip) dd if="$img" iflag=skip_bytes,count_bytes skip="$off" count="$len" status=none | gzip -dc >"$DIR/kernel.tmp" ;;
          xz) dd if="$img" iflag=skip_bytes,count_bytes skip="$off" count="$len" status=none | xz -dc >"$DIR/kernel.tmp" ;;
          zstd) dd if="$img" iflag=skip_bytes,count_bytes skip="$off" count="$len" status=none | zstd -qdc >"$DIR/kernel.tmp" ;;
          *) gva_die "EFI zboot kernel compressed with '$comp': unsupported" ;;
        esac
      else
        cp "$img" "$DIR/kernel.tmp"
      fi
      ;;
    *) cp "$img" "$DIR/kernel.tmp" ;;
  esac
  # An arm64 Image has "ARM\x64" at offset 0x38.
  [ "$(od -An -tx1 -j56 -N4 "$DIR/kernel.tmp" | tr -d ' \n')" = 41524d64 ] ||
    gva_die "could not get an arm64 Image out of boot/vmlinuz-$ABI"
  mv "$DIR/kernel.tmp" "$DIR/kernel"
  cp "$config" "$DIR/config"
  rm -rf "$work"
}

fetch_source() {
  local work=$DIR/work src=linux-source-$SERIES deb
  rm -rf "$work" && mkdir -p "$work"
  deb=$(download "$work" "$src=$KVER")
  gva_log "extracting drivers/gpio and irq_sim.c from $src (xz, ~15 s)"
  # The whole (small) drivers/gpio folder: gpio-sim.c includes gpiolib.h and may include
  # other local headers. tar reads on past the members; the pipeline's status is checked
  # through the files instead.
  {
    dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$src.tar.xz" | xz -dc |
      tar -x -C "$work" --wildcards "$src/drivers/gpio/*" "$src/kernel/irq/irq_sim.c"
  } 2>"$work/extract.err" || true
  for m in drivers/gpio/gpio-sim.c kernel/irq/irq_sim.c; do
    [ -f "$work/$src/$m" ] || gva_die "could not extract $m from $src $KVER:" "$(cat "$work/extract.err")"
  done
  rm -rf "$DIR/src.tmp" && mkdir -p "$DIR/src.tmp"
  cp -r "$work/$src/drivers/gpio" "$DIR/src.tmp/gpio"
  cp "$work/$src/kernel/irq/irq_sim.c" "$DIR/src.tmp/"
  rm -rf "$DIR/src" && mv "$DIR/src.tmp" "$DIR/src"
  rm -rf "$work"
}

# The headers are unpacked (dpkg -x) into the builder rather than installed: Debian 13's
# linux-headers-<abi> depends on linux-image-<abi>, whose installation would pull systemd and
# initramfs-tools and build an initramfs under qemu-user for minutes, for nothing. Unpacked,
# they are the three packages a module build reads: linux-headers-<abi> (config,
# Module.symvers), linux-headers-<base>-common (the tree) and linux-kbuild-<base> (scripts,
# arm64 binaries that run under qemu-user). gcc comes with the builder.
install_headers() {
  local base=${ABI%-*} stamp=/usr/src/.gpio-vm-arm64-headers-$ABI-$KVER dir=$DIR/work/headers debs deb
  [ ! -f "$ROOT$stamp" ] || return 0
  rm -rf "$dir" && mkdir -p "$dir"
  debs=$(download "$dir" "linux-headers-$ABI=$KVER" "linux-headers-$base-common=$KVER" "linux-kbuild-$base=$KVER")
  for deb in $debs; do dpkg -x "$deb" "$ROOT"; done
  rm -rf "$dir"
  touch "$ROOT$stamp"
}

compile_gpio_sim() { # OUT.ko
  local ko=$1 oot=/var/tmp/gpio-vm-arm64-oot kdir=/usr/src/linux-headers-$ABI objs='gpio-sim-core.o'
  install_headers
  [ -f "$ROOT$kdir/Makefile" ] || gva_die "linux-headers-$ABI is unpacked but $kdir/Makefile is missing"
  rm -rf "${ROOT:?}$oot" && mkdir -p "$ROOT$oot"
  # gpio-sim.ko is linked from two objects, so the driver's own file needs another name;
  # its local headers ("gpiolib.h", ...) sit next to it.
  cp "$DIR/src/gpio/gpio-sim.c" "$ROOT$oot/gpio-sim-core.c"
  cp "$DIR"/src/gpio/*.h "$ROOT$oot/"
  if ! grep -qx 'CONFIG_IRQ_SIM=y' "$DIR/config"; then
    # CONFIG_IRQ_SIM is off too, so irq_sim.c is linked into the module. It calls
    # handle_simple_irq(irq_to_desc(n)), but irq_to_desc() is not exported to modules;
    # generic_handle_irq(n) does the same lookup and runs the same handler (irq_sim sets
    # handle_simple_irq on every irq it maps), through an exported symbol.
    cp "$DIR/src/irq_sim.c" "$ROOT$oot/"
    sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$ROOT$oot/irq_sim.c"
    grep -q 'generic_handle_irq(irqnum);' "$ROOT$oot/irq_sim.c" ||
      gva_die "irq_sim.c in linux-source-$SERIES $KVER no longer has the line build.sh patches" \
        "(handle_simple_irq(irq_to_desc(irqnum));): update compile_gpio_sim in $HERE/build.sh"
    objs="$objs irq_sim.o"
  fi
  printf 'obj-m := gpio-sim.o\ngpio-sim-y := %s\n' "$objs" >"$ROOT$oot/Kbuild"
  gva_log "compiling gpio-sim.ko against linux-headers-$ABI (arm64 gcc under qemu-user)"
  # No BTF for the module (it would need pahole, and nothing here reads it).
  if ! inside "make -C $kdir M=$oot -j$(nproc) CONFIG_DEBUG_INFO_BTF_MODULES= modules >$oot/build.log 2>&1 && strip --strip-debug -o $oot/out.ko $oot/gpio-sim.ko"; then
    tail -n 30 "$ROOT$oot/build.log" >&2
    gva_die "building gpio-sim.ko failed"
  fi
  cp "$ROOT$oot/out.ko" "$ko"
  grep -aq "vermagic=$ABI " "$ko" || gva_die "gpio-sim.ko was not built for $ABI (vermagic mismatch)"
  rm -rf "${ROOT:?}$oot"
}

build_module() {
  local out=$DIR/modules.tmp
  rm -rf "$out" && mkdir -p "$out"
  cp "$DIR"/image-modules/* "$out/"
  case $(sed -n 's/^CONFIG_GPIO_SIM=//p' "$DIR/config") in
    y | m) gva_log "this kernel has gpio-sim (CONFIG_GPIO_SIM); nothing to compile" ;;
    *)
      compile_gpio_sim "$out/gpio-sim.ko"
      echo gpio-sim.ko >>"$out/load-order"
      ;;
  esac
  rm -rf "$DIR/modules" && mv "$out" "$DIR/modules"
}

# The base initramfs. Merged /usr as on Debian 13: /bin, /sbin and /lib are links into /usr.
# Every library keeps its path in the builder, so the loader needs no ld.so.cache.
build_rootfs() {
  local root=$DIR/work/rootfs a l
  gva_log "packing the base initramfs"
  rm -rf "$root" && mkdir -p "$root"
  mkdir -p "$root"/{dev,proc,sys,tmp,root,run,etc,payload,modules,usr/bin,usr/lib}
  ln -s usr/bin "$root/bin"
  ln -s usr/bin "$root/sbin"
  ln -s usr/lib "$root/lib"
  ln -s bin "$root/usr/sbin"
  cp "$ROOT/usr/bin/busybox" "$root/usr/bin/busybox"
  for a in $(inside "busybox --list"); do
    [ -e "$root/usr/bin/$a" ] || ln -s busybox "$root/usr/bin/$a"
  done
  for a in "${GPIOD_TOOLS[@]}"; do
    [ -x "$ROOT/usr/bin/$a" ] || gva_die "trixie's gpiod package has no $a"
    rm -f "$root/usr/bin/$a" && cp "$ROOT/usr/bin/$a" "$root/usr/bin/$a"
  done
  # What the tools load, and the loader, each as "PATH REALPATH" from inside the builder.
  inside "for l in \$(for t in ${GPIOD_TOOLS[*]}; do ldd /usr/bin/\$t; done |
      awk '\$2 == \"=>\" && \$3 ~ /^\\// {print \$3} \$1 ~ /^\\// {print \$1}' | sort -u); do
      echo \"\$l \$(readlink -f \$l)\"; done" >"$DIR/work/libs"
  [ -s "$DIR/work/libs" ] || gva_die "ldd listed no libraries for the gpiod tools"
  while read -r l a; do
    mkdir -p "$root$(dirname "$l")"
    cp "$ROOT$a" "$root$l"
  done <"$DIR/work/libs"
  cp "$DIR"/modules/* "$root/modules/"
  cp "$HERE/init" "$root/init" && chmod 755 "$root/init"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
  (cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet) >"$DIR/base.cpio.tmp"
  mv "$DIR/base.cpio.tmp" "$DIR/base.cpio"
  rm -rf "$root"
}

# A stage's fingerprint: its own code, the previous stage's stamp, and extra inputs.
STAMP_CHAIN=
stage_inputs() {
  case $1 in
    fetch_kernel) declare -f wanted_modules ;;
    build_module) declare -f compile_gpio_sim install_headers ;;
    build_rootfs)
      cat "$HERE/init"
      inside "dpkg-query -W busybox-static gpiod libgpiod3 libc6" ;;
  esac
}
stage_fp() { { echo "$KEY $STAMP_CHAIN"; declare -f "$1"; stage_inputs "$1"; } | sha256sum | cut -c1-16; }
stage_done() { [ "$(cat "$DIR/.stamp-$1" 2>/dev/null)" = "$(stage_fp "$1")" ]; }
run_stage() {
  local fp t
  fp=$(stage_fp "$1")
  if [ "$(cat "$DIR/.stamp-$1" 2>/dev/null)" != "$fp" ]; then
    t=$(gva_now)
    rm -f "$DIR/.stamp-$1"
    "$1"
    echo "$fp" >"$DIR/.stamp-$1"
    gva_log "step $1: $(gva_secs "$t")"
  else
    gva_log "step $1: cached"
  fi
  STAMP_CHAIN=$fp
}

# ---------------------------------------------------------------------------- main

trap debian_roots_cleanup EXIT
trap 'exit 130' INT TERM
step "host packages" debian_apt_install_host "${HOST_PKGS[@]}"
step "builder root" gva_builder
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
  gva_log "another build.sh is working in $CACHE; waiting for it"
  flock 9
fi

build_stages() {
  local t
  t=$(gva_now)
  resolve_kernel || { lists_update && resolve_kernel; } ||
    gva_die "cannot resolve linux-image-arm64 from the builder root's apt lists"
  mkdir -p "$DIR"
  gva_log "step resolve kernel: $KPKG $KVER ($(gva_secs "$t"))"
  # In a subshell, so that a failure can be retried or fall back on the last good build.
  (
    set -e
    run_stage fetch_kernel
    grep -Eqx 'CONFIG_GPIO_SIM=[ym]' "$DIR/config" || run_stage fetch_source
    run_stage build_module
    run_stage build_rootfs
  )
}
lists_fresh || lists_update
# Never in a condition (if, ||): set -e would be off inside the stages.
rm -f "$CACHE/.download-failed"
set +e
build_stages
stages_rc=$?
if [ "$stages_rc" != 0 ] && [ -f "$CACHE/.download-failed" ] && [ -z "$LISTS_UPDATED" ]; then
  gva_log "retrying with fresh apt lists"
  lists_update
  build_stages
  stages_rc=$?
fi
set -e
if [ "$stages_rc" != 0 ]; then
  if [ -f "$CACHE/current/base.cpio" ] && [ -f "$CACHE/current/kernel" ]; then
    gva_log "warning: could not build for $KPKG $KVER (error above); run.sh keeps using $(readlink "$CACHE/current")"
    exit 0
  fi
  exit 1
fi
touch "$DIR/.gpio-vm-arm64-build"
if [ "$(readlink "$CACHE/current" 2>/dev/null)" != "$KEY" ]; then
  ln -sfn "$KEY" "$CACHE/current.tmp"
  mv -T "$CACHE/current.tmp" "$CACHE/current"
fi
rm -rf "$DIR/work"
for d in "$CACHE"/*/.gpio-vm-arm64-build; do
  d=${d%/.gpio-vm-arm64-build}
  if [ ! -e "$d/.gpio-vm-arm64-build" ] || [ -L "$d" ] || [ "${d##*/}" = "$KEY" ]; then continue; fi
  gva_log "removing the build for an older kernel: ${d##*/}"
  rm -rf "$d"
done
{
  echo "kernel: $KPKG $KVER"
  echo "modules: $(tr '\n' ' ' <"$DIR/modules/load-order")"
  echo "base initramfs: $(du -h "$DIR/base.cpio" | cut -f1)"
} >"$DIR/BUILD-INFO"
gva_log "ready in $(gva_secs "$T0"): $CACHE/current -> $KEY ($(du -sh "$DIR" | cut -f1))"
