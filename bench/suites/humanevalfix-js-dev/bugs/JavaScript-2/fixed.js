
const truncateNumber = (number) => {
  return number % 1.0;
}

