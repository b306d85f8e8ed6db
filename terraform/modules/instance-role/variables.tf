variable "name_prefix" {
  description = "Name prefix of the role and the instance profile, e.g. geobroker-sydney-kafka-."
  type        = string
}

variable "has_policy" {
  description = "Whether policy_json is given (a plain flag: the policy's JSON is only known at apply, a count cannot depend on it)."
  type        = bool
  default     = false
}

variable "policy_json" {
  description = "Inline policy of what the instance needs (secrets, keys, release objects); used when has_policy."
  type        = string
  default     = null
}

variable "tags" {
  description = "Tags for the role and the instance profile."
  type        = map(string)
  default     = {}
}
