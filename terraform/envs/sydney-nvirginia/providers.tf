# One provider configuration per region. A third region is one more alias here.
provider "aws" {
  alias  = "sydney"
  region = "ap-southeast-2"
  default_tags {
    tags = var.tags
  }
}

provider "aws" {
  alias  = "nvirginia"
  region = "us-east-1"
  default_tags {
    tags = var.tags
  }
}
