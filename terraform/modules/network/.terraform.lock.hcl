# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version     = "6.48.0"
  constraints = ">= 6.0.0, < 7.0.0"
  hashes = [
    "h1:KbyLUYjX3Le7KcOlVaI7aurl/BlR1peYLTcK9MQzRPs=",
  ]
}
