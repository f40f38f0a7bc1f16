
const concatenate = (strings) => {
  return strings.join(' ');
}

