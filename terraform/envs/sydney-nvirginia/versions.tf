terraform {
  required_version = ">= 1.11"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 6.0, < 7.0"
    }
  }
  # State in S3 (bucket, key, region, use_lockfile given at init: see README).
  backend "s3" {}
}
