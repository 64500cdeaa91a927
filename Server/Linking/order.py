"""Writes the link order of gatehouse-server's code (scripts/link-order, issue 35).

    order.py LINK_MAP PAGES [PAGES ...] > startup.order

LINK_MAP is lld's map of the traced binary (-Map, --no-demangle); each PAGES file holds the
pages of its code that ran, in the order they first ran (trace-pages.c). Every input section
of .text that overlaps a page that ran is named by its shortest symbol (the list sorted by
name), so that lld (--symbol-ordering-file) places the code a start runs together: the kernel
then maps fewer of the binary's pages around the ones it runs.
"""
import re
import struct
import sys

ENTRY = re.compile(r'^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s(.*)$')


def read_sections(map_path):
    """The input sections of .text: [address, size, symbols]."""
    sections, output, current = [], None, None
    with open(map_path) as lines:
        for line in lines:
            match = ENTRY.match(line)
            if not match:
                continue
            address, size, rest = int(match.group(1), 16), int(match.group(2), 16), match.group(3)
            if not rest.startswith(' '):
                output, current = rest.strip(), None
            elif output == '.text' and ':(' in rest:
                current = [address, size, []]
                sections.append(current)
            elif output == '.text' and current is not None:
                current[2].append(rest.strip())
    return sections


def first_runs(page_paths):
    """Page number -> rank of its first run, over the traces in turn (the traces' union)."""
    rank = {}
    for path in page_paths:
        data = open(path, 'rb').read()
        for offset in range(0, len(data) - 7, 8):
            page = struct.unpack_from('<Q', data, offset)[0] >> 12
            rank.setdefault(page, len(rank))
    return rank


def main():
    sections = read_sections(sys.argv[1])
    rank = first_runs(sys.argv[2:])
    ranked = []
    for address, size, symbols in sections:
        pages = range(address >> 12, ((address + max(size, 1) - 1) >> 12) + 1)
        ranks = [rank[page] for page in pages if page in rank]
        if ranks and symbols:
            ranked.append((min(ranks), min(symbols, key=len)))
    # Sorted by name, not by when they ran: where each lies inside the gathered code does not
    # change what is resident, and a sorted list changes only where the set of code does.
    seen = sorted({symbol for _, symbol in ranked})
    for symbol in seen:
        print(symbol)
    hot = sum(size for address, size, symbols in sections if symbols and any(
        page in rank for page in range(address >> 12, ((address + max(size, 1) - 1) >> 12) + 1)))
    print(f'{len(seen)} sections, {hot / 2**20:.1f} MiB of code that runs at start, from {len(rank)} pages',
          file=sys.stderr)


if __name__ == '__main__':
    main()
