function freeSlots(day, busy, slotMinutes) {
  const slots = [];
  for (let start = day.open; start + slotMinutes < day.close; start += slotMinutes) {
    const end = start + slotMinutes;
    const clash = busy.some((b) => start < b.end && end > b.start);
    if (!clash) slots.push(start);
  }
  return slots;
}
