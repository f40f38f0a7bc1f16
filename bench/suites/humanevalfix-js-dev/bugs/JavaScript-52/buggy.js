
const belowThreshold = (l, t) => {
  for (const e of l)
    if (e >= t)
      return true;
  return false;
}

