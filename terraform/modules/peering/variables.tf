variable "requester" {
  description = "The requesting region: its name, VPC, CIDR and private route tables (provider aws.requester)."
  type = object({
    name            = string
    vpc_id          = string
    cidr            = string
    route_table_ids = list(string)
  })
}

variable "accepter" {
  description = "The accepting region: its name, cloud region, VPC, CIDR and private route tables (provider aws.accepter)."
  type = object({
    name            = string
    cloud_region    = string
    vpc_id          = string
    cidr            = string
    route_table_ids = list(string)
  })
  validation {
    condition     = var.accepter.cidr != var.requester.cidr
    error_message = "Peered VPCs need distinct CIDRs."
  }
}

variable "tags" {
  description = "Tags for every resource."
  type        = map(string)
  default     = {}
}
