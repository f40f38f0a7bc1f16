
const stringToMd5 = (text) => {
  if (text == '') { return null }
  var md5 = require('js-md5')
  return md5('text')
}

