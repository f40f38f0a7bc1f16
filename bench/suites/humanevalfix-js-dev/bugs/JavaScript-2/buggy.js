
const truncateNumber = (number) => {
  return number % 1.0 + 1.0;
}

