function salutation(customer) {
  return `Dear ${customer.first} ${customer.middle} ${customer.last},`;
}
