
const belowThreshold = (l, t) => {
  for (const e of l)
    if (e >= t)
      return false;
  return true;
}

