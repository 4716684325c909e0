"""What downscaling an image over fetch's caps costs: the wall and CPU time of the step
(``reader.image._within_caps``: Pillow opens, decodes, scales and encodes the image) and the
peak memory it adds, one fresh process per case (peak RSS only grows) that reads the image's
bytes from a file the parent wrote (building it would raise the peak before the step runs).

    python bench/image_downscale.py [--repeat N]

The cases: a PNG of 5000x4000 pixels (photo-like: gradients and noise) of about 30 MB, over
the 3.9 MB byte cap and within the 8000-pixel side cap, which is where a full-size re-encode
costs most; the same picture as a JPEG at quality 95; a PNG of 9000x3000, over the side cap.
Each line prints the case, the image's size in bytes, what came out (size in pixels and bytes),
the wall and CPU seconds (best of ``--repeat``) and the peak RSS the step added.

Run it against the code before a change with ``PYTHONPATH=<old checkout> python
bench/image_downscale.py`` from this checkout.

One run each (``--repeat 1``, a shared 2-core machine at load 10), the image first encoded again
at full size / decoded once and encoded once at the target size (CPU seconds, peak RSS added):
PNG 5000x4000 (26.5 MB) 11.22 s, 179 MB / 1.46 s, 113 MB, both 1732x1385; PNG 9000x3000 (35.5 MB)
12.17 s, 277 MB / 1.55 s, 144 MB (2777x925 / 2696x898); JPEG 5000x4000 q95 (9.2 MB) 0.29 s, 156 MB
/ 0.47 s, 149 MB: its full-size encoding at Pillow's quality 75 fitted (5000x4000, 1.97 MB), the
size estimated from its bytes is 2943x2354 (0.37 MB), which costs a resize. The model APIs scale
an image to about 1500-2000 pixels a side themselves.
"""

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

CASES = {
    "png 5000x4000": ("PNG", (5000, 4000)),
    "jpeg 5000x4000 q95": ("JPEG", (5000, 4000)),
    "png 9000x3000": ("PNG", (9000, 3000)),
}


def build(kind: str, size: tuple) -> bytes:
    """A photo-like picture (colour gradients with noise: compresses like a photograph, not like
    a flat drawing) encoded as ``kind``."""
    from PIL import Image

    width, height = size
    red = Image.linear_gradient("L").resize(size)
    green = Image.radial_gradient("L").resize(size)
    noise = Image.effect_noise(size, 40)
    picture = Image.merge("RGB", (red, green, noise))
    out = io.BytesIO()
    picture.save(out, format=kind, **({"quality": 95} if kind == "JPEG" else {}))
    return out.getvalue()


def measure(case: str, path: str, repeat: int) -> dict:
    """Run in a fresh process: read the image at ``path``, then time ``_within_caps`` on it."""
    from PIL import Image  # noqa: F401 - imported before the baseline, as fetch has it loaded

    from websearch_sync.reader.image import _within_caps
    from websearch_sync.reader.imagesize import read_header

    kind, _size = CASES[case]
    with open(path, "rb") as file:
        data = file.read()
    media = "image/png" if kind == "PNG" else "image/jpeg"
    header = read_header(data, media)
    base_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        out, (width, height), _orientation = _within_caps(data, media, header, "bench", None, 200)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "case": case,
        "in_bytes": len(data),
        "out": "%dx%d, %d bytes" % (width, height, len(out)),
        "wall_s": min(walls),
        "cpu_s": min(cpus),
        "added_rss_mb": (peak_kb - base_kb) / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case; the best is shown (default 3)")
    parser.add_argument("--case", help=argparse.SUPPRESS)  # the child process's one case
    parser.add_argument("--path", help=argparse.SUPPRESS)  # and the file holding its image
    parser.add_argument("--build", help=argparse.SUPPRESS)  # write the cases' images into this folder
    args = parser.parse_args()
    if args.case:
        print(json.dumps(measure(args.case, args.path, args.repeat)))
        return
    if args.build:
        for position, (kind, size) in enumerate(CASES.values()):
            with open(os.path.join(args.build, "%d.%s" % (position, kind.lower())), "wb") as file:
                file.write(build(kind, size))
        return
    with tempfile.TemporaryDirectory() as folder:
        # built in a process of its own: a child starts with its parent's peak RSS (Linux keeps
        # it across fork and exec), which building them here would raise over what is measured
        subprocess.run([sys.executable, __file__, "--build", folder], check=True)
        for position, (case, (kind, _size)) in enumerate(CASES.items()):
            _run(case, os.path.join(folder, "%d.%s" % (position, kind.lower())), args.repeat)


def _run(case: str, path: str, repeat: int) -> None:
    """One case in a fresh process, and its line."""
    child = subprocess.run(
        [sys.executable, __file__, "--case", case, "--path", path, "--repeat", str(repeat)],
        check=True,
        capture_output=True,
        text=True,
    )
    row = json.loads(child.stdout)
    print(
        "%-20s %10d bytes -> %-26s wall %5.2f s  cpu %5.2f s  +%4.0f MB peak RSS"
        % (row["case"], row["in_bytes"], row["out"], row["wall_s"], row["cpu_s"], row["added_rss_mb"])
    )


if __name__ == "__main__":
    main()
