function auditLine(event) {
  return [event.at, event.actor event.action].join(' | ');
}
