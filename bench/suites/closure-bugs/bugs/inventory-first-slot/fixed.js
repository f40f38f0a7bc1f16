function addItem(item) {
  const slot = this.slots.findIndex((s) => s === null);
  if (slot >= 0) {
    this.slots[slot] = item;
    return true;
  }
  return false;
}
