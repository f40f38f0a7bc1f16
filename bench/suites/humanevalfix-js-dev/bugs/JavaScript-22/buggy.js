
const filterIntegers = (values) => {
  values.filter(x => Number.isInteger(x));
  return values;
}

