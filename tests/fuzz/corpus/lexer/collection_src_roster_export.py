from roster.shifts import sort_shifts


def to_csv(shifts):
    lines = ["person,start,end"]
    lines += [f"{s.person},{s.start},{s.end}" for s in sort_shifts(shifts)]
    return "\n".join(lines) + "\n"
